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

  it("shows each workflow's canvas thumbnail, taken from its saved data on every kind of save", async () => {
    const png = (mark: number) =>
      `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0, mark]).toString("base64")}`;
    const withThumbnail = (thumbnail: string) => {
      const data = makeWorkflow("Pictured");
      return { ...data, metadata: { ...data.metadata, thumbnail } };
    };
    const thumbnailOf = async (id: string) =>
      (await list("?q=Pictured")).workflows.find((row) => row.id === id) as unknown as {
        thumbnail_url: string | null;
      };
    const created = await alice.json<{ workflow: { id: string; updated_at: string } }>(
      "POST",
      "/api/workflows",
      { name: "Pictured", data: withThumbnail(png(1)) },
    );
    const { id } = created.body.workflow;
    expect((await thumbnailOf(id)).thumbnail_url).toBe(png(1));

    const put = await alice.json<{ workflow: { updated_at: string } }>(
      "PUT",
      `/api/workflows/${id}`,
      {
        name: "Pictured",
        data: withThumbnail(png(2)),
        basedOn: created.body.workflow.updated_at,
      },
    );
    expect(put.status).toBe(200);
    expect((await thumbnailOf(id)).thumbnail_url).toBe(png(2));

    const { nodes: _nodes, edges: _edges, ...head } = withThumbnail(png(3));
    const patched = await alice.json("PATCH", `/api/workflows/${id}`, {
      name: "Pictured",
      basedOn: put.body.workflow.updated_at,
      data: head,
      nodes: [],
      removed: [],
    });
    expect(patched.status).toBe(200);
    expect((await thumbnailOf(id)).thumbnail_url).toBe(png(3));

    // An address or a lying picture is never kept: the row keeps the one it has.
    const current = await alice.json<{ workflow: { updated_at: string } }>(
      "GET",
      `/api/workflows/${id}`,
    );
    const lying = `data:image/webp;base64,${Buffer.from("<svg onload=alert(1)>").toString("base64")}`;
    const kept = await alice.json("PUT", `/api/workflows/${id}`, {
      name: "Pictured",
      data: withThumbnail(lying),
      basedOn: current.body.workflow.updated_at,
    });
    expect(kept.status).toBe(200);
    expect((await thumbnailOf(id)).thumbnail_url).toBe(png(3));
    const refused = await alice.json<{ error: string }>("POST", "/api/workflows", {
      name: "Pictured",
      data: makeWorkflow("Pictured"),
      thumbnailUrl: "https://evil.example/track.png",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain("A thumbnail must be a small PNG, WebP or JPEG data URL");
  });
});
