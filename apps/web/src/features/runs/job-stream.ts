import { LIMITS, RUN_MESSAGES, TERMINAL_QUEUE_STATUSES } from "@atelier/core";
import type { JobStatus } from "../../services/api.ts";

/** What the stream needs of an EventSource (the browser's, or a test's fake). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface JobStreamHandlers {
  /** A change of a tracked job; after a terminal status the job is no longer tracked. */
  onJob(job: JobStatus): void;
  /** A tracked job passed the 15-minute cap (SPEC §4); it is no longer tracked. */
  onTimeout(requestId: string, message: string): void;
}

export interface JobStreamOptions {
  /** POST /api/queue/status; polling's source of truth when the stream is down. */
  status(requestId: string): Promise<JobStatus>;
  /** Opens `/api/queue/events`; null means no push (polling only). Default: the browser's. */
  openEvents?: EventSourceFactory | null;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
  now?: () => number;
  /** Where "Failed to get status" goes; default console.error. */
  log?: (message: string, error: unknown) => void;
  /** How long after a stream error to try the stream again; default 30 s. */
  reconnectMs?: number;
}

export interface JobStream {
  /** Follows a job until it ends or `startTime` + 15 minutes. */
  track(requestId: string, startTime?: number): void;
  untrack(requestId: string): void;
  /** Stops following every job (a workflow load). */
  reset(): void;
  /** Closes the stream and stops every timer. */
  close(): void;
}

/** The browser's EventSource (with cookies), or null where there is none. */
export const browserEvents: EventSourceFactory | null =
  typeof EventSource === "undefined"
    ? null
    : (url) => new EventSource(url, { withCredentials: true });

const isTerminal = (job: JobStatus) => TERMINAL_QUEUE_STATUSES.includes(job.status);

/**
 * One job stream per tab (DESIGN §7): the server pushes every change of the user's jobs on
 * `/api/queue/events`; while it is unavailable, each tracked job is polled every 3 s (SPEC §4:
 * errors logged as "Failed to get status" and polling goes on), and the stream is tried again
 * later. The stream is open only while something is tracked.
 */
export function createJobStream(handlers: JobStreamHandlers, options: JobStreamOptions): JobStream {
  // Wrapped: the browser's timers throw "Illegal invocation" when called as methods of another object.
  const timers = options.timers ?? {
    setTimeout: ((fn: () => void, ms?: number) => setTimeout(fn, ms)) as typeof setTimeout,
    clearTimeout: (id?: ReturnType<typeof setTimeout>) => clearTimeout(id),
  };
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message, error) => console.error(message, error));
  const openEvents = options.openEvents === undefined ? browserEvents : options.openEvents;
  const reconnectMs = options.reconnectMs ?? 30_000;
  /** Tracked jobs: their start, their 15-minute timer and their poll timer (when polling). */
  const tracked = new Map<
    string,
    { deadline: ReturnType<typeof setTimeout>; poll?: ReturnType<typeof setTimeout> }
  >();
  let source: EventSourceLike | null = null;
  let live = false;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const deliver = (job: JobStatus) => {
    if (!tracked.has(job.requestId)) return;
    if (isTerminal(job)) untrack(job.requestId);
    handlers.onJob(job);
  };

  const check = (requestId: string) =>
    options.status(requestId).then(deliver, (error) => log(RUN_MESSAGES.statusFailed, error));

  const schedulePoll = (requestId: string) => {
    const entry = tracked.get(requestId);
    if (!entry || live || entry.poll) return;
    entry.poll = timers.setTimeout(async () => {
      entry.poll = undefined;
      if (live || !tracked.has(requestId)) return;
      await check(requestId);
      schedulePoll(requestId);
    }, LIMITS.timing.pollIntervalMs);
  };

  const stopPolls = () => {
    for (const entry of tracked.values()) {
      if (entry.poll) timers.clearTimeout(entry.poll);
      entry.poll = undefined;
    }
  };

  const shut = () => {
    source?.close();
    source = null;
    live = false;
    if (retry) timers.clearTimeout(retry);
    retry = null;
  };

  const fallBack = () => {
    shut();
    for (const requestId of tracked.keys()) schedulePoll(requestId);
    retry = timers.setTimeout(() => {
      retry = null;
      open();
    }, reconnectMs);
  };

  function open() {
    if (source || retry || tracked.size === 0) return;
    if (!openEvents) {
      for (const requestId of tracked.keys()) schedulePoll(requestId);
      return;
    }
    const events = openEvents("/api/queue/events");
    source = events;
    events.addEventListener("ready", (event) => {
      if (source !== events) return;
      live = true;
      stopPolls();
      // Jobs that ended before the stream opened are not in `ready`: ask once.
      const active = new Map(
        (JSON.parse(event.data) as { jobs: JobStatus[] }).jobs.map((job) => [job.requestId, job]),
      );
      for (const requestId of [...tracked.keys()]) {
        const job = active.get(requestId);
        if (job) deliver(job);
        else void check(requestId);
      }
    });
    events.addEventListener("job", (event) => {
      if (source === events) deliver(JSON.parse(event.data) as JobStatus);
    });
    events.addEventListener("error", () => {
      if (source === events) fallBack();
    });
  }

  function untrack(requestId: string) {
    const entry = tracked.get(requestId);
    if (!entry) return;
    timers.clearTimeout(entry.deadline);
    if (entry.poll) timers.clearTimeout(entry.poll);
    tracked.delete(requestId);
    if (tracked.size === 0) shut();
  }

  const reset = () => {
    for (const requestId of [...tracked.keys()]) untrack(requestId);
  };

  return {
    track(requestId, startTime = now()) {
      if (tracked.has(requestId)) return;
      const left = Math.max(0, startTime + LIMITS.timing.pollMaxMs - now());
      const deadline = timers.setTimeout(() => {
        untrack(requestId);
        handlers.onTimeout(requestId, RUN_MESSAGES.timedOut);
      }, left);
      tracked.set(requestId, { deadline });
      if (source || retry) {
        if (!live && !source) schedulePoll(requestId);
        // A stream already live may have missed this job's first changes.
        if (live) void check(requestId);
      } else open();
    },
    untrack,
    reset,
    close() {
      reset();
      shut();
    },
  };
}
