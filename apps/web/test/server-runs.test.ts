import type { RunView } from "@atelier/core";
import { describe, expect, it, vi } from "vitest";
import type { CanvasNodeData } from "../src/features/document/types.ts";
import { applyRun } from "../src/features/runs/apply-run.ts";
import { createRunFollower } from "../src/features/runs/run-follower.ts";
import { createRunsStore } from "../src/features/runs/runs-store.ts";
import { lastSource, openEvents } from "./helpers/runner.ts";

const step = (patch: Partial<RunView["nodes"][number]> = {}): RunView["nodes"][number] => ({
  id: "img",
  type: "flux-pro",
  label: "Image",
  status: "queued",
  requestId: null,
  attempt: 0,
  progress: null,
  startedAt: null,
  completedAt: null,
  ...patch,
});
const runOf = (patch: Partial<RunView> = {}, nodes = [step()]): RunView => ({
  id: "run-1",
  workflowId: "wf-1",
  status: "queued",
  target: { all: true },
  inputs: {},
  createdAt: "2026-11-25T00:00:00.000Z",
  startedAt: null,
  completedAt: null,
  cost: null,
  nodes,
  ...patch,
});

describe("applying a server-side run to the document", () => {
  const setup = () => {
    const data: Record<string, CanvasNodeData> = { img: { label: "Image", status: "idle" } };
    const write = vi.fn((id: string, patch: Partial<CanvasNodeData>) => {
      data[id] = { ...data[id], ...patch };
    });
    const runs = createRunsStore();
    const deps = { data: (id: string) => data[id], write, signature: () => "SIG", runs };
    return { data, write, runs, deps, seen: new Map<string, string>() };
  };

  it("shows a queued step as processing, then takes its result once, with a history entry", () => {
    const { data, runs, deps, seen } = setup();
    applyRun(runOf(), deps, seen);
    expect(data.img?.status).toBe("processing");
    expect(runs.getState().runs.img).toMatchObject({ status: "IN_QUEUE", runId: "run-1" });
    const done = runOf({ status: "completed" }, [
      step({
        status: "completed",
        requestId: "job-1",
        completedAt: "2026-11-25T00:00:05.000Z",
        outputs: { imageUrl: "/api/media/file/a.png" },
      }),
    ]);
    applyRun(done, deps, seen);
    applyRun(done, deps, seen);
    expect(data.img).toMatchObject({
      status: "complete",
      outputs: { imageUrl: "/api/media/file/a.png" },
      runSignature: "SIG",
      history: [{ requestId: "job-1", at: Date.parse("2026-11-25T00:00:05.000Z") }],
    });
    // The repeated event changed nothing; a new tab's state (fresh `seen`) adds no entry.
    applyRun(done, deps, new Map());
    expect(data.img?.history).toHaveLength(1);
  });

  it("says why a step failed or was not run, and notes a kept result", () => {
    const { data, deps, seen } = setup();
    applyRun(
      runOf({ status: "failed" }, [
        step({ status: "not_run", error: 'Not run: "Text" did not complete' }),
      ]),
      deps,
      seen,
    );
    expect(data.img).toMatchObject({ status: "error", error: 'Not run: "Text" did not complete' });
    applyRun(
      runOf({ id: "run-2" }, [
        step({ status: "skipped", note: "Unchanged since its last run: kept its result" }),
      ]),
      deps,
      seen,
    );
    expect(data.img).toMatchObject({
      status: "complete",
      runNote: "Unchanged since its last run: kept its result",
    });
  });
});

describe("following server-side runs", () => {
  it("reads a run when followed and when the stream opens, delivers its events, and closes when it ends", async () => {
    const seen: RunView[] = [];
    const getRun = vi.fn(async () => runOf({ status: "running" }));
    const follower = createRunFollower((run) => seen.push(run), { getRun, openEvents });
    follower.follow("run-1");
    const source = lastSource();
    expect(source.url).toBe("/api/queue/events");
    await vi.waitFor(() => expect(getRun).toHaveBeenCalledTimes(1));
    source.emit("ready", { jobs: [] });
    await vi.waitFor(() => expect(getRun).toHaveBeenCalledTimes(2));
    source.emit("run", runOf({ id: "someone-else" }));
    source.emit("run", runOf({ status: "completed" }));
    expect(seen.map((run) => run.status)).toEqual(["running", "running", "completed"]);
    expect(source.closed).toBe(true);
  });

  it("watching a workflow, adopts its runs started elsewhere (another tab, a script)", () => {
    const seen: string[] = [];
    const follower = createRunFollower((run) => seen.push(`${run.id}:${run.status}`), {
      getRun: vi.fn(async () => runOf()),
      openEvents,
    });
    follower.watch((run) => run.workflowId === "wf-1");
    const source = lastSource();
    source.emit("run", runOf({ id: "other-workflow", workflowId: "wf-2" }));
    source.emit("run", runOf({ id: "from-a-script", status: "running" }));
    source.emit("run", runOf({ id: "from-a-script", status: "completed" }));
    expect(seen).toEqual(["from-a-script:running", "from-a-script:completed"]);
    expect(source.closed).toBe(false);
    follower.reset();
    expect(source.closed).toBe(true);
  });
});
