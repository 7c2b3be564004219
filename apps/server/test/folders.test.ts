import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Folder {
  id: string;
  name: string;
  workflow_count: number;
  last_workflow_modified: string | null;
}

describe("folders (SPEC §7)", () => {
  let server: TestServer;
  let alice: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("alice@example.com");
  });
  afterAll(() => server.close());

  const create = (name: unknown) =>
    alice.json<{ folder: Folder; error: string }>("POST", "/api/folders", { name });

  it("answers 401 to a signed-out folder list", async () => {
    const anonymous = new TestClient(server.url);
    const result = await anonymous.json("GET", "/api/folders");
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: "Not authenticated" });
  });

  it("creates a folder and lists it with counts", async () => {
    const created = await create("  Moodboards ");
    expect(created.status).toBe(201);
    expect(created.body.folder).toEqual({
      id: expect.any(String),
      name: "Moodboards",
      workflow_count: 0,
      last_workflow_modified: null,
    });
    const list = await alice.json<{ folders: Folder[] }>("GET", "/api/folders");
    expect(list.body.folders.map((folder) => folder.name)).toContain("Moodboards");
  });

  it.each([
    ["", "Folder name is required"],
    ["a".repeat(100), "Folder name must be less than 100 characters"],
    ["a/b", "Folder name contains invalid characters"],
    ["Trash", "This folder name is reserved"],
    ["UNFILED", "This folder name is reserved"],
  ])("refuses %j with {error: %s}", async (name, error) => {
    const result = await create(name);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error });
  });

  it("refuses a missing name with SPEC's message and a duplicate name clearly", async () => {
    const missing = await alice.json("POST", "/api/folders", {});
    expect(missing.status).toBe(400);
    await create("Dupes");
    const duplicate = await create("dupes");
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('A folder named "dupes" already exists');
  });

  it("renames and deletes; the folder's workflows become unfiled", async () => {
    const { folder } = (await create("Old name")).body;
    const renamed = await alice.json<{ folder: Folder }>("PATCH", `/api/folders/${folder.id}`, {
      name: "New name",
    });
    expect(renamed.body.folder.name).toBe("New name");
    expect((await alice.json("PATCH", `/api/folders/${folder.id}`, { name: "all" })).body).toEqual({
      error: "This folder name is reserved",
    });

    const workflow = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "W",
      data: makeWorkflow(),
      folderId: folder.id,
    });
    expect((await alice.json("DELETE", `/api/folders/${folder.id}`)).status).toBe(200);
    const after = await alice.json<{ workflow: { folder_id: string | null } }>(
      "GET",
      `/api/workflows/${workflow.body.workflow.id}`,
    );
    expect(after.body.workflow.folder_id).toBeNull();
    expect((await alice.json("DELETE", `/api/folders/${folder.id}`)).status).toBe(404);
  });

  it("moves workflows into a folder and back to unfiled, with counts and last change", async () => {
    const { folder } = (await create("Projects")).body;
    const one = (
      await alice.json<{ workflow: { id: string; updated_at: string } }>("POST", "/api/workflows", {
        name: "One",
        data: makeWorkflow(),
      })
    ).body.workflow;
    const two = (
      await alice.json<{ workflow: { id: string; updated_at: string } }>("POST", "/api/workflows", {
        name: "Two",
        data: makeWorkflow(),
      })
    ).body.workflow;
    const moved = await alice.json("PUT", `/api/folders/${folder.id}/workflows`, {
      workflowIds: [one.id, two.id],
    });
    expect(moved.status).toBe(200);
    const listed = (
      await alice.json<{ folders: Folder[] }>("GET", "/api/folders")
    ).body.folders.find((entry) => entry.id === folder.id);
    expect(listed?.workflow_count).toBe(2);
    expect(listed?.last_workflow_modified).toBe([one.updated_at, two.updated_at].sort().at(-1));
    const inFolder = await alice.json<{ workflows: { id: string }[] }>(
      "GET",
      `/api/workflows?folderId=${folder.id}`,
    );
    expect(inFolder.body.workflows.map((workflow) => workflow.id).sort()).toEqual(
      [one.id, two.id].sort(),
    );

    await alice.json("PUT", "/api/folders/unfiled/workflows", { workflowIds: [one.id] });
    const unfiled = await alice.json<{ workflows: { id: string }[] }>(
      "GET",
      "/api/workflows?folderId=unfiled",
    );
    expect(unfiled.body.workflows.map((workflow) => workflow.id)).toContain(one.id);
    expect(unfiled.body.workflows.map((workflow) => workflow.id)).not.toContain(two.id);
  });

  it("copies workflows into a folder as new workflows with the same content", async () => {
    const { folder } = (await create("Copies")).body;
    const source = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Original",
        data: makeWorkflow("Original", 3),
      })
    ).body.workflow;
    const copied = await alice.json<{ workflowIds: string[] }>(
      "POST",
      `/api/folders/${folder.id}/workflows`,
      { workflowIds: [source.id] },
    );
    expect(copied.status).toBe(201);
    expect(copied.body.workflowIds).toHaveLength(1);
    const copy = await alice.json<{
      workflow: { name: string; folder_id: string; data: { nodes: unknown[] } };
    }>("GET", `/api/workflows/${copied.body.workflowIds[0]}`);
    expect(copy.body.workflow).toMatchObject({ name: "Original", folder_id: folder.id });
    expect(copy.body.workflow.data.nodes).toHaveLength(3);
  });

  it("copies all or nothing: one foreign id copies none", async () => {
    const { folder } = (await create("All or nothing")).body;
    const mine = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Mine",
        data: makeWorkflow(),
      })
    ).body.workflow;
    const before = (await alice.json<{ workflows: unknown[] }>("GET", "/api/workflows")).body
      .workflows.length;
    const result = await alice.json("POST", `/api/folders/${folder.id}/workflows`, {
      workflowIds: [mine.id, "someone-elses"],
    });
    expect(result.status).toBe(404);
    expect(
      (await alice.json<{ workflows: unknown[] }>("GET", "/api/workflows")).body.workflows,
    ).toHaveLength(before);
  });

  it("refuses to move into a missing folder and an empty id list", async () => {
    expect(
      (await alice.json("PUT", "/api/folders/nope/workflows", { workflowIds: ["x"] })).status,
    ).toBe(404);
    expect(
      (await alice.json("PUT", "/api/folders/unfiled/workflows", { workflowIds: [] })).status,
    ).toBe(400);
  });
});
