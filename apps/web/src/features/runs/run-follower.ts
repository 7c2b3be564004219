import { LIMITS, RUN_MESSAGES, type RunView, TERMINAL_RUN_STATUSES } from "@atelier/core";
import { browserEvents, type EventSourceFactory, type EventSourceLike } from "./job-stream.ts";

export interface RunFollowerOptions {
  /** GET /api/runs/:id: the source of truth when the stream is down or was. */
  getRun(id: string): Promise<RunView>;
  /** Opens `/api/queue/events`; null means polling only. Default: the browser's. */
  openEvents?: EventSourceFactory | null;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
  /** How long after a stream error to try the stream again; default 30 s. */
  reconnectMs?: number;
  log?: (message: string, error: unknown) => void;
}

export interface RunFollower {
  /** Follows a server-side run until it ends. */
  follow(runId: string): void;
  unfollow(runId: string): void;
  /**
   * Also follows every run the stream announces that `filter` accepts (the open workflow's
   * runs started elsewhere: another tab, a script), keeping the stream open for them; null
   * stops watching.
   */
  watch(filter: ((run: RunView) => boolean) | null): void;
  /** Stops following every run and watching (a workflow load). */
  reset(): void;
  close(): void;
}

const finished = (run: RunView) =>
  (TERMINAL_RUN_STATUSES as readonly string[]).includes(run.status);

/**
 * Follows server-side runs (ADR 0010) on the user's event stream (`run` events); while it is
 * down, each followed run is read every 3 s, and the stream is tried again later. Every run
 * is read once when followed and again when the stream (re)opens, so no change is missed.
 */
export function createRunFollower(
  onRun: (run: RunView) => void,
  options: RunFollowerOptions,
): RunFollower {
  const timers = options.timers ?? {
    setTimeout: ((fn: () => void, ms?: number) => setTimeout(fn, ms)) as typeof setTimeout,
    clearTimeout: (id?: ReturnType<typeof setTimeout>) => clearTimeout(id),
  };
  const openEvents = options.openEvents === undefined ? browserEvents : options.openEvents;
  const log = options.log ?? ((message, error) => console.error(message, error));
  const followed = new Set<string>();
  let source: EventSourceLike | null = null;
  let live = false;
  let poll: ReturnType<typeof setTimeout> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let filter: ((run: RunView) => boolean) | null = null;
  const idle = () => followed.size === 0 && !filter;

  const deliver = (run: RunView, announced = false) => {
    if (!followed.has(run.id)) {
      if (!announced || !filter?.(run)) return;
      followed.add(run.id);
    }
    if (finished(run)) followed.delete(run.id);
    onRun(run);
    if (idle()) shut();
  };
  const read = (id: string) =>
    options.getRun(id).then(deliver, (error) => log(RUN_MESSAGES.statusFailed, error));

  const schedulePoll = () => {
    if (poll || live || followed.size === 0) return;
    poll = timers.setTimeout(async () => {
      poll = null;
      if (live) return;
      await Promise.all([...followed].map(read));
      schedulePoll();
    }, LIMITS.timing.pollIntervalMs);
  };

  function shut() {
    source?.close();
    source = null;
    live = false;
    if (retry) timers.clearTimeout(retry);
    retry = null;
    if (poll) timers.clearTimeout(poll);
    poll = null;
  }

  function open() {
    if (source || retry || idle()) return;
    if (!openEvents) return schedulePoll();
    const events = openEvents("/api/queue/events");
    source = events;
    events.addEventListener("ready", () => {
      live = true;
      if (poll) timers.clearTimeout(poll);
      poll = null;
      for (const id of followed) void read(id);
    });
    events.addEventListener("run", (event) => {
      try {
        deliver(JSON.parse(event.data) as RunView, true);
      } catch (error) {
        log(RUN_MESSAGES.statusFailed, error);
      }
    });
    events.addEventListener("error", () => {
      if (source !== events) return;
      shut();
      schedulePoll();
      retry = timers.setTimeout(() => {
        retry = null;
        open();
      }, options.reconnectMs ?? 30_000);
    });
  }

  return {
    follow(runId) {
      followed.add(runId);
      open();
      if (!source) schedulePoll();
      void read(runId);
    },
    unfollow(runId) {
      followed.delete(runId);
      if (idle()) shut();
    },
    watch(accept) {
      filter = accept;
      if (filter) open();
      else if (idle()) shut();
    },
    reset() {
      followed.clear();
      filter = null;
      shut();
    },
    close() {
      followed.clear();
      filter = null;
      shut();
    },
  };
}
