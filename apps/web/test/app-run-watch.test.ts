import type { AppRun } from "@atelier/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchAppRun } from "../src/features/apps/app-run-watch.ts";
import type { EventSourceLike } from "../src/features/runs/job-stream.ts";

const run = (status: string, progress: number | null = null): AppRun => ({
  id: "run-1",
  status,
  version: 1,
  createdAt: "2026-11-25T00:00:00.000Z",
  completedAt: null,
  runBy: null,
  progress,
  outputs: [],
});

/** An event stream the test drives. */
function fakeStream() {
  const listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  const source: EventSourceLike & { closed: boolean } = {
    closed: false,
    addEventListener(type, listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    close() {
      this.closed = true;
    },
  };
  const emit = (type: string, data: unknown = {}) => {
    for (const listener of listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  };
  return { source, emit, open: vi.fn(() => source) };
}

/** Reads answered in order, each when the test says. */
function readsInTurn() {
  const pending: ((value: AppRun) => void)[] = [];
  const read = vi.fn(() => new Promise<AppRun>((resolve) => pending.push(resolve)));
  const answer = async (value: AppRun) => {
    await vi.waitFor(() => expect(pending.length).toBeGreaterThan(0));
    pending.shift()?.(value);
    await Promise.resolve();
  };
  return { read, answer };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("following an app run", () => {
  it("reads on the stream's changes for this run and its jobs, and stops when it ends", async () => {
    const stream = fakeStream();
    const { read, answer } = readsInTurn();
    const onRun = vi.fn();
    watchAppRun("run-1", { read, onRun, onError: vi.fn(), openEvents: stream.open });
    expect(stream.open).toHaveBeenCalledWith("/api/queue/events");
    await answer(run("queued"));
    stream.emit("ready", { jobs: [] });
    await answer(run("running", 10));
    // Another run's change is not ours; a job's progress may be.
    stream.emit("run", { id: "run-2" });
    await vi.advanceTimersByTimeAsync(5000);
    expect(read).toHaveBeenCalledTimes(2);
    stream.emit("job", { requestId: "j" });
    await answer(run("running", 60));
    stream.emit("run", { id: "run-1" });
    await answer(run("completed", 100));
    expect(onRun.mock.calls.map(([value]) => [value.status, value.progress])).toEqual([
      ["queued", null],
      ["running", 10],
      ["running", 60],
      ["completed", 100],
    ]);
    expect(stream.source.closed).toBe(true);
    stream.emit("job");
    await vi.advanceTimersByTimeAsync(5000);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it("never overlaps reads: changes during a read ask for one more", async () => {
    const stream = fakeStream();
    const { read, answer } = readsInTurn();
    watchAppRun("run-1", { read, onRun: vi.fn(), onError: vi.fn(), openEvents: stream.open });
    stream.emit("ready", { jobs: [] });
    stream.emit("job");
    stream.emit("job");
    expect(read).toHaveBeenCalledTimes(1);
    await answer(run("running"));
    expect(read).toHaveBeenCalledTimes(2);
    await answer(run("completed"));
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("reads every second without a stream, and after it fails", async () => {
    const stream = fakeStream();
    const { read, answer } = readsInTurn();
    const stop = watchAppRun("run-1", {
      read,
      onRun: vi.fn(),
      onError: vi.fn(),
      openEvents: stream.open,
    });
    await answer(run("queued"));
    stream.emit("error");
    expect(stream.source.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    await answer(run("running"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(read).toHaveBeenCalledTimes(3);
    stop();
    await answer(run("running"));
    await vi.advanceTimersByTimeAsync(3000);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("reports a failed read and keeps following", async () => {
    const onError = vi.fn();
    let calls = 0;
    const read = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw new Error("Network error");
      return run("completed");
    });
    const onRun = vi.fn();
    watchAppRun("run-1", { read, onRun, onError, openEvents: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith(new Error("Network error"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(onRun).toHaveBeenCalledWith(run("completed"));
    await vi.advanceTimersByTimeAsync(5000);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
