import { type AppRun, TERMINAL_RUN_STATUSES } from "@atelier/core";
import {
  browserEvents,
  type EventSourceFactory,
  type EventSourceLike,
} from "../runs/job-stream.ts";

export interface AppRunWatchOptions {
  /** GET /api/apps/{slug}/runs/{runId}: the app's view of the run (its shown outputs only). */
  read(): Promise<AppRun>;
  onRun(run: AppRun): void;
  onError(error: unknown): void;
  /** Opens `/api/queue/events`; null means polling only. Default: the browser's. */
  openEvents?: EventSourceFactory | null;
  /** How often to read while the stream is down; default 1 s. */
  pollMs?: number;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
}

export const isFinished = (run: AppRun) =>
  (TERMINAL_RUN_STATUSES as readonly string[]).includes(run.status);

/**
 * Follows one app run until it ends. The user's event stream says when something changed
 * (`run` events for its steps, `job` events for their progress) and the app's view is read
 * then; while the stream is down it is read every second. Reads never overlap: a change
 * during a read asks for one more. Returns a function that stops following.
 */
export function watchAppRun(runId: string, options: AppRunWatchOptions): () => void {
  const timers = options.timers ?? {
    setTimeout: ((fn: () => void, ms?: number) => setTimeout(fn, ms)) as typeof setTimeout,
    clearTimeout: (id?: ReturnType<typeof setTimeout>) => clearTimeout(id),
  };
  const openEvents = options.openEvents === undefined ? browserEvents : options.openEvents;
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let live = false;
  let reading = false;
  let again = false;
  let poll: ReturnType<typeof setTimeout> | null = null;
  let source: EventSourceLike | null = null;

  const stop = () => {
    stopped = true;
    source?.close();
    source = null;
    if (poll) timers.clearTimeout(poll);
    poll = null;
  };

  const schedulePoll = () => {
    if (stopped || live || poll) return;
    poll = timers.setTimeout(() => {
      poll = null;
      void read();
    }, pollMs);
  };

  async function read(): Promise<void> {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const run = await options.read();
      if (stopped) return;
      options.onRun(run);
      if (isFinished(run)) return stop();
    } catch (error) {
      if (!stopped) options.onError(error);
    } finally {
      reading = false;
    }
    if (again) {
      again = false;
      return read();
    }
    schedulePoll();
  }

  if (openEvents) {
    const events = openEvents("/api/queue/events");
    source = events;
    events.addEventListener("ready", () => {
      if (source !== events) return;
      live = true;
      if (poll) timers.clearTimeout(poll);
      poll = null;
      // Changes before the stream opened are in the next read.
      void read();
    });
    // A run event names its run; a job event (a step's progress) is read for whatever it is.
    events.addEventListener("run", (event) => {
      if (source !== events) return;
      try {
        if ((JSON.parse(event.data) as { id?: unknown }).id !== runId) return;
      } catch {
        return;
      }
      void read();
    });
    events.addEventListener("job", () => {
      if (source === events) void read();
    });
    events.addEventListener("error", () => {
      if (source !== events) return;
      // Polling from here on: a run is short, the stream is not tried again.
      events.close();
      source = null;
      live = false;
      schedulePoll();
    });
  }
  void read();
  return stop;
}
