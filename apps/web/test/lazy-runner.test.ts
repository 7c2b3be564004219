import { afterEach, describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import { createLazyRunner } from "../src/features/runs/lazy-runner.ts";
import { createRunner } from "../src/features/runs/runner.ts";
import { createRunsStore } from "../src/features/runs/runs-store.ts";
import { useWorkspace } from "../src/features/workspace/store.ts";
import { fakeApi, node, openEvents, values } from "./helpers/runner.ts";

// The real runner, counted: the lazy one must load it only when there is something to do.
vi.mock("../src/features/runs/runner.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/features/runs/runner.ts")>();
  return { ...actual, createRunner: vi.fn(actual.createRunner) };
});

const prompted = { status: "complete", inputValues: values({ prompt: "a cat" }) } as const;

function setup(nodes = [node("a", "flux-pro", prompted)]) {
  const documents = createDocumentStore({ nodes, edges: [] });
  const api = fakeApi();
  const runs = createRunsStore();
  // No server-side run is under way.
  const runsApi = {
    startRun: vi.fn(),
    getRun: vi.fn(),
    cancelRun: vi.fn(),
    queue: vi.fn(async () => ({ runs: [], paused: false })),
  };
  const runner = createLazyRunner(documents, {
    api,
    runs,
    runsApi: runsApi as never,
    stream: { openEvents },
  });
  return { documents, api, runs, runner };
}

afterEach(() => {
  vi.mocked(createRunner).mockClear();
  useWorkspace.setState({ user: null });
});

describe("the lazy runner", () => {
  it("signed out with nothing running, a resume loads no runner and asks for nothing", async () => {
    const { runner, api } = setup();
    await runner.resume(null);
    await runner.resume("local-1");
    expect(createRunner).not.toHaveBeenCalled();
    expect(api.listJobs).not.toHaveBeenCalled();
  });

  it("a node restored as running is followed up signed out too", async () => {
    const { runner, api } = setup([node("a", "flux-pro", { ...prompted, status: "processing" })]);
    await runner.resume(null);
    expect(createRunner).toHaveBeenCalledTimes(1);
    expect(api.listJobs).toHaveBeenCalledWith(null);
  });

  it("signed in, a resume loads the runner and lists the workflow's jobs", async () => {
    const { runner, api } = setup();
    await runner.resume(null);
    useWorkspace.setState({ user: { id: "u1", email: "u@example.com", name: "U" } as never });
    await runner.resume("wf-1");
    expect(createRunner).toHaveBeenCalledTimes(1);
    expect(api.listJobs).toHaveBeenCalledWith("wf-1");
  });

  it("once loaded, every resume is the runner's own (it forgets the previous entries)", async () => {
    const { runner, api, runs } = setup();
    await runner.run("a");
    expect(api.generate).toHaveBeenCalledTimes(1);
    expect(runs.getState().runs.a).toBeDefined();
    await runner.resume(null);
    expect(runs.getState().runs).toEqual({});
    expect(createRunner).toHaveBeenCalledTimes(1);
    runner.dispose();
  });
});
