import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useMissingWorkflow } from "../src/features/workspace/missing-workflow.ts";
import { opened, useWorkspace } from "../src/features/workspace/store.ts";
import {
  type AddressCommands,
  followAddress,
  openAtStart,
  workflowAt,
  workflowPath,
} from "../src/features/workspace/url-sync.ts";

/** A stand-in for persistence: opens put a document on the canvas (a load) and name it. */
function fakePersistence(known: Record<string, string>, last: string | null = null) {
  let loads = 0;
  const show = (workflowId: string | null, name: string) => {
    loads++;
    opened({
      workflowId,
      location: workflowId ? (workflowId.startsWith("local-") ? "local" : "cloud") : null,
      basedOn: null,
      name,
      dirty: false,
    });
  };
  const open = vi.fn(async (id: string) => {
    const name = known[id];
    if (name === undefined) return "missing" as const;
    show(id, name);
    return "opened" as const;
  });
  const documents = { getState: () => ({ loads }) };
  const commands: AddressCommands = {
    open,
    recover: vi.fn(async (target?: string) => {
      const wanted = target ?? last;
      return wanted ? open(wanted) : ("opened" as const);
    }),
    newWorkflow: vi.fn(() => show(null, "Untitled workflow")),
    leave: vi.fn(async () => true),
  };
  return { commands, documents, open, show };
}

/** Starts as the editor does: the start-up open, then following. */
async function start({ commands, documents }: ReturnType<typeof fakePersistence>) {
  const started = openAtStart(commands);
  const stop = followAddress(commands, documents, started);
  await started;
  await Promise.resolve();
  return stop;
}

/** As the browser does on back/forward: the entry's address, then `popstate`. */
function goBackTo(path: string) {
  window.history.replaceState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

const path = () => window.location.pathname;

describe("workflow addresses", () => {
  it("names cloud workflows /w/:id, device ones /local/:id, unsaved ones /", () => {
    expect(workflowPath("0b6f")).toBe("/w/0b6f");
    expect(workflowPath("local-5d1a")).toBe("/local/5d1a");
    expect(workflowPath(null)).toBe("/");
    expect(workflowAt("/w/0b6f")).toEqual({ id: "0b6f" });
    expect(workflowAt("/local/5d1a")).toEqual({ id: "local-5d1a" });
    expect(workflowAt("/")).toEqual({ id: null });
    expect(workflowAt("/auth/callback")).toBeNull();
  });
});

describe("the address follows the open workflow (url-sync.ts)", () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    window.history.replaceState(null, "", "/");
    opened({
      workflowId: null,
      location: null,
      basedOn: null,
      name: "Untitled workflow",
      dirty: false,
    });
    useMissingWorkflow.setState({ id: null });
  });
  afterEach(() => stop());

  it("at /, reopening the last workflow replaces the address (no new entry)", async () => {
    const fake = fakePersistence({ a: "Alpha" }, "a");
    const { commands } = fake;
    const entries = window.history.length;
    stop = await start(fake);
    expect(commands.recover).toHaveBeenCalledWith(undefined);
    expect(path()).toBe("/w/a");
    expect(window.history.length).toBe(entries);
    expect(document.title).toBe("Alpha — Atelier");
  });

  it("opens the workflow the address names at start, keeping the query", async () => {
    window.history.replaceState(null, "", "/local/5d1a?debug=renders");
    const fake = fakePersistence({ "local-5d1a": "On device" });
    const { commands } = fake;
    stop = await start(fake);
    expect(commands.recover).toHaveBeenCalledWith("local-5d1a");
    expect(`${path()}${window.location.search}`).toBe("/local/5d1a?debug=renders");
    expect(document.title).toBe("On device — Atelier");
  });

  it("moving to another workflow is a new entry; a new id for the same document is not", async () => {
    const fake = fakePersistence({ a: "Alpha", b: "Beta" });
    const { commands, show } = fake;
    stop = await start(fake);
    const entries = window.history.length;
    // The first save of a new workflow: an id, no new document.
    useWorkspace.setState({ workflowId: "a", location: "cloud" });
    expect(path()).toBe("/w/a");
    expect(window.history.length).toBe(entries);
    // Opening another (from the library): a new entry.
    show("b", "Beta");
    expect(path()).toBe("/w/b");
    expect(window.history.length).toBe(entries + 1);
    expect(document.title).toBe("Beta — Atelier");
    // A rename shows in the title.
    useWorkspace.setState({ name: "Beta 2" });
    expect(document.title).toBe("Beta 2 — Atelier");
    // New workflow: "/", a new entry.
    commands.newWorkflow();
    expect(path()).toBe("/");
    expect(window.history.length).toBe(entries + 2);
  });

  it("back and forward open the workflow the address names, through the usual open", async () => {
    const fake = fakePersistence({ a: "Alpha", b: "Beta" });
    const { commands, open, show } = fake;
    stop = await start(fake);
    show("a", "Alpha");
    show("b", "Beta");
    const entries = window.history.length;
    goBackTo("/w/a");
    await vi.waitFor(() => expect(useWorkspace.getState().workflowId).toBe("a"));
    expect(open).toHaveBeenLastCalledWith("a", { reportMissing: false });
    expect(path()).toBe("/w/a");
    expect(window.history.length).toBe(entries);
    expect(document.title).toBe("Alpha — Atelier");
    // Back to the unsaved new workflow: a new canvas.
    goBackTo("/");
    await vi.waitFor(() => expect(commands.newWorkflow).toHaveBeenCalledTimes(1));
    expect(commands.leave).toHaveBeenCalled();
    expect(useWorkspace.getState().workflowId).toBeNull();
    expect(path()).toBe("/");
  });

  it("back with unsaved edits the user keeps opens nothing and puts the address back", async () => {
    const fake = fakePersistence({ a: "Alpha", b: "Beta" });
    const { commands, open, show } = fake;
    stop = await start(fake);
    show("a", "Alpha");
    show("b", "Beta");
    vi.mocked(commands.leave).mockResolvedValueOnce(false);
    const opens = open.mock.calls.length;
    goBackTo("/w/a");
    await vi.waitFor(() => expect(path()).toBe("/w/b"));
    expect(open.mock.calls.length).toBe(opens);
    expect(useWorkspace.getState().workflowId).toBe("b");
  });

  it("an address naming no workflow of this user shows the not-found page, left by a move", async () => {
    window.history.replaceState(null, "", "/w/nope");
    const fake = fakePersistence({ a: "Alpha" });
    const { commands, show } = fake;
    stop = await start(fake);
    expect(useMissingWorkflow.getState().id).toBe("nope");
    expect(path()).toBe("/w/nope");
    expect(document.title).toBe("Workflow not found — Atelier");
    // Unrelated workspace changes (the session) do not move the address.
    useWorkspace.setState({ dirty: true });
    expect(path()).toBe("/w/nope");
    // "Start a new canvas": a new entry at "/".
    const entries = window.history.length;
    commands.newWorkflow();
    expect(useMissingWorkflow.getState().id).toBeNull();
    expect(path()).toBe("/");
    expect(window.history.length).toBe(entries + 1);
    // Forward to the missing one, then back to an open one.
    show("a", "Alpha");
    goBackTo("/w/gone");
    await vi.waitFor(() => expect(useMissingWorkflow.getState().id).toBe("gone"));
    expect(useWorkspace.getState().workflowId).toBe("a");
    goBackTo("/w/a");
    expect(useMissingWorkflow.getState().id).toBeNull();
    expect(document.title).toBe("Alpha — Atelier");
  });

  it("signing in on the not-found page tries the workflow again", async () => {
    window.history.replaceState(null, "", "/w/mine");
    const known: Record<string, string> = {};
    stop = await start(fakePersistence(known));
    expect(useMissingWorkflow.getState().id).toBe("mine");
    known.mine = "Mine";
    useWorkspace.setState({ user: { id: "u1", email: "u@example.com", name: "U" } as never });
    await vi.waitFor(() => expect(useMissingWorkflow.getState().id).toBeNull());
    expect(useWorkspace.getState().workflowId).toBe("mine");
    expect(path()).toBe("/w/mine");
    useWorkspace.setState({ user: null });
  });
});
