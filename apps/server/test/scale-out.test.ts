import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./helpers/database.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { type ServerProcess, startServerProcess } from "./helpers/process.ts";
import { freePort } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

// The scale-out shape: several web processes and a worker on one PostgreSQL.
describe.runIf(TEST_DB_KIND === "postgres")("scale-out on PostgreSQL", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-scale-"));
  const processes: ServerProcess[] = [];
  let dropDatabase: () => Promise<void> = async () => undefined;
  let webA: ServerProcess;
  let webB: ServerProcess;
  let common: Record<string, string>;

  beforeAll(async () => {
    const database = await createPostgresDatabaseUrl();
    dropDatabase = database.drop;
    common = {
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      AUTH_SECRET: "scale-out-secret-scale-out-secret-0123",
    };
    const [portA, portB] = [await freePort(), await freePort()];
    // Both start at once: migrations must serialise between them.
    [webA, webB] = await Promise.all([
      startServerProcess("web", {
        ...common,
        PORT: String(portA),
        PUBLIC_URL: `http://127.0.0.1:${portA}`,
      }),
      startServerProcess("web", {
        ...common,
        PORT: String(portB),
        PUBLIC_URL: `http://127.0.0.1:${portB}`,
      }),
    ]);
    processes.push(webA, webB);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers a save made through one web process to an event stream opened on the other", async () => {
    const onA = new TestClient(webA.url);
    await onA.signUp("scale@example.com");
    const created = (
      await onA.json<{ workflow: { id: string; updated_at: string } }>("POST", "/api/workflows", {
        name: "Shared",
        data: makeWorkflow(),
      })
    ).body.workflow;

    // The same user, signed in on the other process (sessions live in the shared database).
    const onB = new TestClient(webB.url);
    expect((await onB.signIn("scale@example.com")).status).toBe(200);
    const stream = await onB.raw("GET", `/api/workflows/${created.id}/events`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = "";
    const waitFor = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        received += decoder.decode(value, { stream: true });
      }
    };
    await waitFor("event: ready");

    const saved = await onA.json<{ workflow: { updated_at: string } }>(
      "PUT",
      `/api/workflows/${created.id}`,
      {
        name: "Shared v2",
        data: makeWorkflow("Shared v2"),
        basedOn: created.updated_at,
      },
    );
    expect(saved.status).toBe(200);
    await waitFor(`"updated_at":"${saved.body.workflow.updated_at}"`);
    expect(received).toContain("event: updated");
    await reader.cancel();
  });

  it("runs a generation sent to a web process on a separate worker process", async () => {
    const worker = await startServerProcess("worker", {
      ...common,
      PORT: String(await freePort()),
      LOCAL_PROVIDER_STEP_MS: "20",
    });
    processes.push(worker);
    expect(worker.child.exitCode).toBeNull();
    const client = new TestClient(webB.url);
    await client.signUp("scale-jobs@example.com");
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "a harbour" },
    });
    expect(started.status).toBe(202);
    // Followed from the other web process: job events cross processes too.
    const onA = new TestClient(webA.url);
    expect((await onA.signIn("scale-jobs@example.com")).status).toBe(200);
    const job = await waitForJob(onA, started.body.requestId);
    expect(job.status).toBe("COMPLETED");
    expect(String(job.outputs?.imageUrl)).toMatch(/\.png$/);
  });
});
