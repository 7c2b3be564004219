import { beforeEach, describe, expect, it, vi } from "vitest";
import type { FetchedWorkflow } from "../src/features/persistence/load-workflow.ts";

// The server's answer arrives when the test says so.
const server = vi.hoisted(() => ({ answer: null as null | ((found: FetchedWorkflow) => void) }));
vi.mock("../src/features/persistence/load-workflow.ts", () => ({
  LOAD_STEPS: { check: "check", draw: "draw" },
  fetchWorkflow: () =>
    new Promise<FetchedWorkflow>((resolve) => {
      server.answer = resolve;
    }),
}));
vi.mock("../src/ui/notify.ts", () => ({
  notify: { action: vi.fn(), info: vi.fn(), error: vi.fn() },
}));

const { openWorkflow } = await import("../src/features/persistence/open-workflow.ts");
const { useWorkspace, opened } = await import("../src/features/workspace/store.ts");
const { edited } = await import("../src/features/workspace/document-status.ts");

const theirs: FetchedWorkflow = {
  id: "w1",
  name: "Saved elsewhere",
  location: "cloud",
  basedOn: "2026-11-28T10:00:00.000Z",
  read: { graph: { nodes: [], edges: [] }, recovered: false },
  fromDevice: false,
};

function fakeTarget() {
  return {
    replaceDocument: vi.fn(),
    newWorkflow: vi.fn(),
    open: vi.fn(),
    loads: () => 0,
  };
}

describe("reloading a workflow changed elsewhere (live sync)", () => {
  beforeEach(() => {
    opened({
      workflowId: "w1",
      location: "cloud",
      basedOn: "2026-11-28T09:00:00.000Z",
      name: "Mine",
      dirty: false,
    });
    useWorkspace.setState({ conflict: null });
  });

  it("keeps an edit made while the reload was fetched, and reports the conflict", async () => {
    const target = fakeTarget();
    const reloading = openWorkflow(target, "w1", { reload: true });
    edited();
    server.answer?.(theirs);
    expect(await reloading).toBe("opened");
    expect(target.replaceDocument).not.toHaveBeenCalled();
    expect(useWorkspace.getState()).toMatchObject({
      dirty: true,
      name: "Mine",
      basedOn: "2026-11-28T09:00:00.000Z",
      conflict: { theirUpdatedAt: "2026-11-28T10:00:00.000Z" },
    });
  });

  it("replaces an untouched workflow with the version saved elsewhere", async () => {
    const target = fakeTarget();
    const reloading = openWorkflow(target, "w1", { reload: true });
    server.answer?.(theirs);
    expect(await reloading).toBe("opened");
    expect(target.replaceDocument).toHaveBeenCalledTimes(1);
    expect(useWorkspace.getState()).toMatchObject({
      dirty: false,
      name: "Saved elsewhere",
      basedOn: "2026-11-28T10:00:00.000Z",
      conflict: null,
    });
  });

  it("drops the reload when another workflow was opened meanwhile", async () => {
    const target = fakeTarget();
    const reloading = openWorkflow(target, "w1", { reload: true });
    opened({ workflowId: "w2", location: "cloud", basedOn: null, name: "Other", dirty: false });
    server.answer?.(theirs);
    await reloading;
    expect(target.replaceDocument).not.toHaveBeenCalled();
    expect(useWorkspace.getState()).toMatchObject({ workflowId: "w2", conflict: null });
  });

  it("an open the user asked for replaces the canvas", async () => {
    const target = fakeTarget();
    const opening = openWorkflow(target, "w1");
    server.answer?.(theirs);
    await opening;
    expect(target.replaceDocument).toHaveBeenCalledTimes(1);
  });
});
