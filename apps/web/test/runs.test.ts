import { RUN_MESSAGES } from "@atelier/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createJobStream } from "../src/features/runs/job-stream.ts";
import { createRunsStore, type RunEntry } from "../src/features/runs/runs-store.ts";
import { ApiError, type JobStatus } from "../src/services/api.ts";
import {
  FakeEventSource,
  fakeApi,
  job,
  lastSource,
  node,
  openEvents,
  setupRunner,
  values,
} from "./helpers/runner.ts";

const entry = (nodeId: string, patch: Partial<RunEntry> = {}) => ({
  nodeId,
  requestId: `req-${nodeId}`,
  ...patch,
});

describe("runs store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("removes a cancelled entry after 1 s and a completed one after 2 s; keeps a failed one", () => {
    const runs = createRunsStore();
    const state = () => runs.getState();
    state().upsert(entry("a", { status: "IN_PROGRESS" }));
    state().upsert(entry("b"));
    state().upsert(entry("c"));
    const untouched = state().runs.c;
    state().upsert(entry("a", { status: "CANCELLED" }));
    state().upsert(entry("b", { status: "COMPLETED" }));
    state().upsert(entry("c", { status: "FAILED", error: "boom" }));
    expect(state().runs.c).not.toBe(untouched);
    vi.advanceTimersByTime(999);
    expect(Object.keys(state().runs)).toEqual(["a", "b", "c"]);
    vi.advanceTimersByTime(1);
    expect(Object.keys(state().runs)).toEqual(["b", "c"]);
    vi.advanceTimersByTime(999);
    expect(Object.keys(state().runs)).toEqual(["b", "c"]);
    vi.advanceTimersByTime(1);
    expect(Object.keys(state().runs)).toEqual(["c"]);
    vi.advanceTimersByTime(60_000);
    expect(state().runs.c).toMatchObject({ status: "FAILED", error: "boom" });
  });

  it("keeps other nodes' entries identical, and a new request survives the old removal", () => {
    const runs = createRunsStore();
    const state = () => runs.getState();
    state().upsert(entry("a", { status: "COMPLETED" }));
    state().upsert(entry("b", { status: "IN_QUEUE" }));
    const b = state().runs.b;
    state().upsert(entry("a", { requestId: "second", status: "IN_QUEUE" }));
    expect(state().runs.b).toBe(b);
    vi.advanceTimersByTime(5000);
    expect(state().runs.a).toMatchObject({ requestId: "second", status: "IN_QUEUE" });
    state().clear();
    expect(state().runs).toEqual({});
  });
});

describe("job stream", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
  });
  afterEach(() => vi.useRealTimers());

  it("delivers pushed changes of tracked jobs and closes when nothing is tracked", () => {
    const onJob = vi.fn();
    const status = vi.fn(async () => job());
    const stream = createJobStream({ onJob, onTimeout: vi.fn() }, { status, openEvents });
    stream.track("r1");
    const source = lastSource();
    expect(source.url).toBe("/api/queue/events");
    source.emit("ready", { jobs: [job({ status: "IN_PROGRESS" })] });
    source.emit("job", job({ requestId: "someone-else" }));
    source.emit("job", job({ status: "COMPLETED" }));
    expect(onJob.mock.calls.map(([update]) => update.status)).toEqual(["IN_PROGRESS", "COMPLETED"]);
    expect(source.closed).toBe(true);
    expect(status).not.toHaveBeenCalled();
  });

  it("falls back to polling every 3 s when the stream errors, logs failures, then reconnects", async () => {
    const onJob = vi.fn();
    const log = vi.fn();
    const status = vi
      .fn<(id: string) => Promise<JobStatus>>()
      .mockResolvedValueOnce(job({ status: "IN_PROGRESS", progress: 40 }))
      .mockRejectedValueOnce(new ApiError(500, "Internal error"))
      .mockResolvedValue(job({ status: "IN_PROGRESS", progress: 80 }));
    const stream = createJobStream(
      { onJob, onTimeout: vi.fn() },
      { status, openEvents, log, reconnectMs: 20_000 },
    );
    stream.track("r1");
    lastSource().emit("error");
    expect(lastSource().closed).toBe(true);
    await vi.advanceTimersByTimeAsync(2999);
    expect(status).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(status).toHaveBeenCalledWith("r1");
    expect(onJob).toHaveBeenLastCalledWith(expect.objectContaining({ progress: 40 }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(log).toHaveBeenCalledWith(RUN_MESSAGES.statusFailed, expect.any(ApiError));
    await vi.advanceTimersByTimeAsync(3000);
    expect(status).toHaveBeenCalledTimes(3);
    expect(onJob).toHaveBeenLastCalledWith(expect.objectContaining({ progress: 80 }));
    // After 20 s the stream is tried again; once ready, polling stops.
    await vi.advanceTimersByTimeAsync(11_000);
    expect(FakeEventSource.opened).toHaveLength(2);
    lastSource().emit("ready", { jobs: [job({ status: "IN_PROGRESS", progress: 90 })] });
    const calls = status.mock.calls.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(status).toHaveBeenCalledTimes(calls);
    expect(onJob).toHaveBeenLastCalledWith(expect.objectContaining({ progress: 90 }));
    stream.close();
  });

  it("stops after 15 minutes with SPEC's timeout message, and asks once for jobs missing from ready", async () => {
    const onTimeout = vi.fn();
    const onJob = vi.fn();
    const status = vi.fn(async (id: string) => job({ requestId: id, status: "IN_PROGRESS" }));
    const stream = createJobStream({ onJob, onTimeout }, { status, openEvents });
    stream.track("r1");
    lastSource().emit("ready", { jobs: [] });
    await vi.advanceTimersByTimeAsync(0);
    expect(status).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(15 * 60 * 1000 - 1);
    expect(onTimeout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onTimeout).toHaveBeenCalledWith(
      "r1",
      "Generation timed out after 15 minutes. Please try again.",
    );
    expect(lastSource().closed).toBe(true);
  });
});

describe("runner", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs a node: posts its inputs, follows the stream, writes outputs on completion", async () => {
    const prompt = node("n1", "flux-pro", {
      status: "idle",
      inputValues: values({ prompt: "a cat" }),
    });
    const other = node("n2", "text", { inputValues: values({ text: "x" }) });
    const { runner, runs, data, api, documents } = setupRunner(fakeApi(), [prompt, other]);
    const pastLength = documents.getState().past.length;
    await runner.run("n1");
    expect(api.generate).toHaveBeenCalledWith("flux-pro", {
      nodeId: "n1",
      workflowId: "wf-1",
      inputs: {},
      params: { prompt: "a cat" },
      idempotencyKey: "key-12345678",
    });
    expect(data("n1")).toMatchObject({ status: "processing", error: null });
    expect(runs.getState().runs.n1).toMatchObject({
      requestId: "r1",
      status: "IN_QUEUE",
      model: "flux-pro",
    });
    const untouched = documents.getState().nodes[1];
    const source = lastSource();
    source.emit("ready", {
      jobs: [job({ status: "IN_PROGRESS", progress: 50, logs: [{ message: "step" }] })],
    });
    expect(runs.getState().runs.n1).toMatchObject({
      status: "IN_PROGRESS",
      progress: 50,
      queuePosition: 2,
    });
    const outputs = { imageUrl: "/api/media/file/out.png" };
    const outputValues = { image: { value: "/api/media/file/out.png" } };
    source.emit("job", job({ status: "COMPLETED", progress: 100, outputs, outputValues }));
    expect(data("n1")).toMatchObject({ status: "complete", outputs, outputValues, error: null });
    expect(documents.getState().nodes[1]).toBe(untouched);
    expect(documents.getState().past).toHaveLength(pastLength);
    vi.advanceTimersByTime(2000);
    expect(runs.getState().runs.n1).toBeUndefined();
  });

  it("marks a missing required input on the node and sends nothing", async () => {
    const { runner, data, api, showError } = setupRunner(fakeApi(), [
      node("n1", "gpt-image", { inputValues: values({ prompt: "" }) }),
    ]);
    await runner.run("n1");
    expect(data("n1")).toMatchObject({ status: "error", error: "Missing required input: Prompt" });
    expect(api.generate).not.toHaveBeenCalled();
    expect(showError).not.toHaveBeenCalled();
  });

  it("puts an API refusal on the node and in a toast", async () => {
    const api = fakeApi({
      generate: vi.fn(async () => {
        throw new ApiError(401, "Not authenticated");
      }),
    });
    const { runner, data, showError } = setupRunner(api, [
      node("n1", "flux-pro", { inputValues: values({ prompt: "p" }) }),
    ]);
    await runner.run("n1");
    expect(data("n1")).toMatchObject({ status: "error", error: "Not authenticated" });
    expect(showError).toHaveBeenCalledWith("Not authenticated");
  });

  it("writes the provider's error on failure, and idles a cancelled node", async () => {
    const { runner, data, runs } = setupRunner(fakeApi(), [
      node("n1", "flux-pro", { inputValues: values({ prompt: "p" }) }),
    ]);
    await runner.run("n1");
    lastSource().emit("job", job({ status: "FAILED", error: "Content policy" }));
    expect(data("n1")).toMatchObject({ status: "error", error: "Content policy" });
    await runner.run("n1");
    expect(data("n1")).toMatchObject({ status: "processing", error: null });
    await runner.cancel("n1");
    expect(data("n1")).toMatchObject({ status: "idle", error: null });
    expect(runs.getState().runs.n1?.status).toBe("CANCELLED");
    vi.advanceTimersByTime(1000);
    expect(runs.getState().runs.n1).toBeUndefined();
  });

  it("resumes after a reload: follows unfinished jobs, applies finished ones, idles orphans", async () => {
    const done = { imageUrl: "/api/media/file/done.png" };
    const api = fakeApi({
      listJobs: vi.fn(async () => ({
        jobs: [
          job({ requestId: "r2", nodeId: "a", status: "IN_PROGRESS", progress: 30 }),
          job({
            requestId: "r3",
            nodeId: "b",
            status: "COMPLETED",
            outputs: done,
            outputValues: {},
          }),
          job({ requestId: "old", nodeId: "b", status: "FAILED" }),
        ],
      })),
    });
    const { runner, data, runs } = setupRunner(api, [
      node("a", "flux-pro", { status: "processing" }),
      node("b", "flux-pro", { status: "processing" }),
      node("c", "flux-pro", { status: "processing" }),
      node("d", "flux-pro", { status: "complete" }),
    ]);
    await runner.resume("wf-1");
    expect(api.listJobs).toHaveBeenCalledWith("wf-1");
    expect(runs.getState().runs.a).toMatchObject({
      requestId: "r2",
      status: "IN_PROGRESS",
      progress: 30,
    });
    expect(data("b")).toMatchObject({ status: "complete", outputs: done });
    expect(data("c")).toMatchObject({ status: "idle" });
    expect(data("d")).toMatchObject({ status: "complete" });
    lastSource().emit(
      "job",
      job({ requestId: "r2", nodeId: "a", status: "COMPLETED", outputs: done }),
    );
    expect(data("a")).toMatchObject({ status: "complete", outputs: done });
  });

  it("signed out with no running node, a resume asks the server for nothing (no 401 on every load)", async () => {
    const api = fakeApi();
    const { runner } = setupRunner(api, [node("a", "flux-pro", { status: "complete" })]);
    await runner.resume(null);
    expect(api.listJobs).not.toHaveBeenCalled();
  });

  it("a running node restored with no session behind it stops saying Running", async () => {
    const api = fakeApi({
      listJobs: vi.fn(async () => {
        throw new ApiError(401, "Not authenticated");
      }),
    });
    const { runner, data } = setupRunner(api, [node("a", "flux-pro", { status: "processing" })]);
    await runner.resume(null);
    expect(api.listJobs).toHaveBeenCalledWith(null);
    expect(data("a")).toMatchObject({ status: "idle" });
  });

  it("a resume of a document loaded after the first one follows its running jobs; the older answer is dropped", async () => {
    let answerFirst: (value: { jobs: JobStatus[] }) => void = () => {};
    const listJobs = vi
      .fn()
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockImplementationOnce(async () => ({
        jobs: [job({ requestId: "r9", nodeId: "a", status: "IN_PROGRESS" })],
      }));
    const api = fakeApi({ listJobs });
    const { runner, documents, runs } = setupRunner(api, [
      node("x", "flux-pro", { status: "processing" }),
    ]);
    const first = runner.resume(null);
    // The journal comes back: the running node is on the canvas only now.
    documents
      .getState()
      .load({ nodes: [node("a", "flux-pro", { status: "processing" })], edges: [] });
    await runner.resume(null);
    answerFirst({ jobs: [job({ requestId: "stale", nodeId: "x", status: "COMPLETED" })] });
    await first;
    expect(runs.getState().runs.a).toMatchObject({ requestId: "r9", status: "IN_PROGRESS" });
    expect(Object.keys(runs.getState().runs)).toEqual(["a"]);
  });

  it("knows which node types run", () => {
    const { runner } = setupRunner();
    expect(runner.isRunnable("flux-pro")).toBe(true);
    expect(runner.isRunnable("text")).toBe(false);
    expect(runner.isRunnable("no-such-type")).toBe(false);
  });
});
