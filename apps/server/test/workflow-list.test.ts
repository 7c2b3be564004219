import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Listed {
  workflows: { id: string; name: string }[];
  nextOffset: number | null;
}

describe("the workflow list: pages, search and order (GET /api/workflows)", () => {
  let server: TestServer;
  let alice: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("alice-list@example.com");
    const names = [
      ...Array.from({ length: 103 }, (_, index) => `Board ${String(index).padStart(3, "0")}`),
      "100% cotton",
      "under_score",
      "apple",
    ];
    for (const name of names) {
      const created = await alice.json("POST", "/api/workflows", {
        name,
        data: makeWorkflow(name),
      });
      expect(created.status).toBe(201);
    }
  }, 120_000);
  afterAll(() => server.close());

  const list = async (query = "") =>
    (await alice.json<Listed>("GET", `/api/workflows${query}`)).body;

  it("answers 100 a page, newest first, and the offset of the next page", async () => {
    const first = await list();
    expect(first.workflows).toHaveLength(100);
    expect(first.workflows[0]?.name).toBe("apple");
    expect(first.nextOffset).toBe(100);
    const second = await list("?offset=100");
    expect(second.workflows).toHaveLength(6);
    expect(second.nextOffset).toBeNull();
    const ids = new Set([...first.workflows, ...second.workflows].map((row) => row.id));
    expect(ids.size).toBe(106);
  });

  it("finds names containing the search in any case, % and _ taken literally", async () => {
    expect((await list("?q=BOARD%2009")).workflows.map((row) => row.name)).toEqual([
      "Board 099",
      "Board 098",
      "Board 097",
      "Board 096",
      "Board 095",
      "Board 094",
      "Board 093",
      "Board 092",
      "Board 091",
      "Board 090",
    ]);
    expect((await list("?q=%25")).workflows.map((row) => row.name)).toEqual(["100% cotton"]);
    expect((await list("?q=_")).workflows.map((row) => row.name)).toEqual(["under_score"]);
    expect((await list("?q=nothing-like-it")).workflows).toEqual([]);
  });

  it("sorts by name, case aside", async () => {
    const page = await list("?sort=name");
    expect(page.workflows.slice(0, 3).map((row) => row.name)).toEqual([
      "100% cotton",
      "apple",
      "Board 000",
    ]);
    const bad = await alice.json<{ error: string }>("GET", "/api/workflows?sort=size");
    expect(bad.status).toBe(400);
  });
});
