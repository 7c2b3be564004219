import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SavedWorkflow } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./helpers/database.ts";
import { type ServerProcess, startServerProcess } from "./helpers/process.ts";
import { freePort } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Row {
  id: string;
  updated_at: string;
  data: SavedWorkflow;
  is_chunked: boolean;
}

/**
 * A server killed with SIGKILL in the middle of a large (chunked) save, at each step of the
 * save and at arbitrary moments: after a restart the workflow loads whole every time —
 * the previous version, or (only once the save committed) the new one, never a mix.
 */
describe("crash safety of saves", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-crash-"));
  let env: Record<string, string>;
  let dropDatabase: () => Promise<void> = async () => undefined;
  let client: TestClient;
  let workflowId: string;
  let previous: Row;

  async function start(extra: Record<string, string> = {}): Promise<ServerProcess> {
    const server = await startServerProcess("web", { ...env, ...extra });
    client = new TestClient(server.url);
    await client.signIn("crash@example.com");
    return server;
  }

  beforeAll(async () => {
    const port = await freePort();
    env = {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: "crash-test-secret-crash-test-secret-0123",
    };
    if (TEST_DB_KIND === "postgres") {
      const database = await createPostgresDatabaseUrl();
      env.DATABASE_URL = database.url;
      dropDatabase = database.drop;
    }
    const server = await startServerProcess("web", env);
    client = new TestClient(server.url);
    await client.signUp("crash@example.com");
    const created = await client.json<{ workflow: Row }>("POST", "/api/workflows", {
      name: "v1",
      data: makeWorkflow("v1", 120, 50_000),
    });
    expect(created.body.workflow.is_chunked).toBe(true);
    workflowId = created.body.workflow.id;
    previous = (await client.json<{ workflow: Row }>("GET", `/api/workflows/${workflowId}`)).body
      .workflow;
    await server.stop();
  }, 120_000);

  afterAll(async () => {
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const bigSave = (name: string) =>
    client.json<{ workflow: Row }>("PUT", `/api/workflows/${workflowId}`, {
      name,
      data: makeWorkflow(name, 130, 50_000),
      basedOn: previous.updated_at,
    });

  it.each([
    "save:before-update",
    "save:row-updated",
    "save:chunks-deleted",
    "save:half-chunks-written",
    "save:before-commit",
  ])(
    "keeps the previous version whole when killed at %s",
    async (point) => {
      const server = await start({ ATELIER_FAULT_POINT: point });
      await expect(bigSave("v2")).rejects.toThrow();
      expect(await server.exited).toBe("SIGKILL");

      const restarted = await start();
      const loaded = await client.json<{ workflow: Row }>("GET", `/api/workflows/${workflowId}`);
      expect(loaded.status).toBe(200);
      expect(loaded.body.workflow.updated_at).toBe(previous.updated_at);
      expect(loaded.body.workflow.data).toEqual(previous.data);
      await restarted.stop();
    },
    120_000,
  );

  it.each([20, 150])(
    "loads a whole version after a kill %i ms into a save",
    async (delay) => {
      const server = await start();
      const saving = bigSave(`v-${delay}`).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, delay)); // the moment of the power cut
      server.child.kill("SIGKILL");
      const answer = await saving;
      await server.exited;

      const restarted = await start();
      const loaded = (await client.json<{ workflow: Row }>("GET", `/api/workflows/${workflowId}`))
        .body.workflow;
      const committed = loaded.updated_at !== previous.updated_at;
      if (committed) {
        expect(loaded.data.metadata.name).toBe(`v-${delay}`);
        expect(loaded.data).toEqual({
          ...makeWorkflow(`v-${delay}`, 130, 50_000),
          metadata: { ...makeWorkflow(`v-${delay}`, 130, 50_000).metadata, id: workflowId },
        });
        previous = loaded;
      } else {
        expect(answer?.status).not.toBe(200);
        expect(loaded.data).toEqual(previous.data);
      }
      await restarted.stop();
    },
    120_000,
  );
});
