import { act, cleanup, render } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";

// The lists' requests, counted: what the server is asked around a save.
const asked = vi.hoisted(() => ({ all: 0, folders: 0 }));
vi.mock("../src/features/library/library-actions.ts", () => ({
  listAllWorkflows: async () => {
    asked.all++;
    return { entries: [], nextOffset: null };
  },
  listFoldersAndWorkflows: async () => {
    asked.folders++;
    return { folders: [], workflows: [] };
  },
}));

const { Library } = await import("../src/features/library/Library.tsx");
const { PersistenceProvider } = await import("../src/features/persistence/context.tsx");
const { useWorkspace } = await import("../src/features/workspace/store.ts");
type Persistence = Parameters<typeof PersistenceProvider>[0]["value"];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

it("lists again once a save ends, not while it is under way", async () => {
  vi.useFakeTimers();
  const idle: (() => void)[] = [];
  vi.stubGlobal("requestIdleCallback", (task: () => void) => idle.push(task));
  const runIdle = () =>
    act(() => {
      for (const task of idle.splice(0)) task();
    });
  const settle = () => act(() => vi.advanceTimersByTimeAsync(1_000));
  useWorkspace.setState({
    user: { id: "u1", email: "a@example.com", name: "A" } as never,
    workflowId: "w1",
    save: { state: "idle", progress: 0 },
  });
  const persistence = { backups: async () => [] } as unknown as Persistence;
  render(
    <PersistenceProvider value={persistence}>
      <Library />
    </PersistenceProvider>,
  );
  await settle();
  expect(asked).toEqual({ all: 1, folders: 1 });

  /** A workspace change, then the browser idle and every timer run: what the lists asked. */
  const after = async (change: Partial<ReturnType<typeof useWorkspace.getState>>) => {
    act(() => useWorkspace.setState(change));
    runIdle();
    await settle();
    return { ...asked };
  };

  // A save starts and the browser goes idle while its request is out: nothing is asked.
  expect(await after({ save: { state: "saving", progress: 5 } })).toEqual({ all: 1, folders: 1 });
  // It ends: the lists are asked once, and not again as "Saved" gives way to idle.
  expect(await after({ save: { state: "saved", progress: 100 } })).toEqual({ all: 2, folders: 2 });
  expect(await after({ save: { state: "idle", progress: 0 } })).toEqual({ all: 2, folders: 2 });
  // Another workflow opens: asked again.
  expect(await after({ workflowId: "w2" })).toEqual({ all: 3, folders: 3 });
});
