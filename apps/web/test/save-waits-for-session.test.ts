import { afterEach, describe, expect, it, vi } from "vitest";

// Who is signed in, answered when the test says so.
const session = vi.hoisted(() => ({
  answer: null as null | ((user: { id: string; email: string; name: string } | null) => void),
}));
vi.mock("../src/services/auth-cache.ts", () => ({
  authCache: {
    session: () =>
      new Promise((resolve) => {
        session.answer = resolve;
      }),
    isAdmin: async () => false,
  },
}));
// The save itself, watched: who the tab thought was signed in when it began.
const saves = vi.hoisted(() => ({ users: [] as (string | null)[] }));
vi.mock("../src/features/persistence/save.ts", () => ({
  saveWorkflow: async () => {
    const { useWorkspace } = await import("../src/features/workspace/store.ts");
    saves.users.push(useWorkspace.getState().user?.id ?? null);
  },
}));

import { createDocumentStore } from "../src/features/document/store.ts";
import { createPersistence, SESSION_WAIT_MS } from "../src/features/persistence/persistence.ts";
import { sessionChanged } from "../src/features/workspace/store.ts";

// Right after a reload the journal brings the edits back before the tab knows who is signed
// in: a Ctrl+S then saved them to this browser as a second workflow (e2e persistence).
describe("a save waits for the editor's first session check", () => {
  afterEach(() => {
    saves.users = [];
    sessionChanged(null, false);
    vi.useRealTimers();
  });

  it("goes ahead once the session is known, as the signed-in user", async () => {
    const persistence = createPersistence(createDocumentStore());
    const checked = persistence.refreshUser();
    const saved = persistence.save();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(saves.users).toEqual([]);

    session.answer?.({ id: "user-1", email: "a@example.com", name: "A" });
    await checked;
    await saved;
    expect(saves.users).toEqual(["user-1"]);

    // Later checks (the tab regaining focus) hold no save.
    void persistence.refreshUser();
    await persistence.save();
    expect(saves.users).toEqual(["user-1", "user-1"]);
  });

  it(`goes ahead as signed out when the server has not answered in ${SESSION_WAIT_MS} ms`, async () => {
    vi.useFakeTimers();
    const persistence = createPersistence(createDocumentStore());
    void persistence.refreshUser();
    const saved = persistence.save();
    await vi.advanceTimersByTimeAsync(SESSION_WAIT_MS - 1);
    expect(saves.users).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await saved;
    expect(saves.users).toEqual([null]);
  });
});
