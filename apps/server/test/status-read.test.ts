import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOwnJob } from "../src/commands/generation.ts";
import { NotFoundError } from "../src/domain/errors.ts";
import { presentJobStatus } from "../src/http/presenters.ts";
import { JobStatusCache } from "../src/jobs/status-cache.ts";
import { readOwnJobStatus } from "../src/jobs/status-read.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

describe("the job status cache", () => {
  const watching = () => {
    const listeners = new Map<string, (jobId: string) => void>();
    const cache = new JobStatusCache<string>(10_000, (userId, onChange) => {
      listeners.set(userId, onChange);
      return () => listeners.delete(userId);
    });
    return { cache, notify: (userId: string, jobId: string) => listeners.get(userId)?.(jobId) };
  };

  it("gives an answer back only to its owner, until the job changes or the TTL ends", () => {
    const { cache, notify } = watching();
    const now = Date.now();
    cache.store("j1", "alice", "running", cache.mark("alice"), now);
    expect(cache.lookup("j1", "alice", now + 1000)).toBe("running");
    expect(cache.lookup("j1", "bob", now + 1000)).toBeNull();
    expect(cache.lookup("j1", "alice", now + 10_000)).toBeNull();
    cache.store("j1", "alice", "running", cache.mark("alice"), now);
    notify("alice", "j1");
    expect(cache.lookup("j1", "alice", now)).toBeNull();
    cache.close();
  });

  it("does not keep a read that overlapped a change", () => {
    const { cache, notify } = watching();
    const mark = cache.mark("alice");
    notify("alice", "j1");
    cache.store("j1", "alice", "stale", mark);
    expect(cache.lookup("j1", "alice")).toBeNull();
    // Another job's change does not matter.
    const other = cache.mark("alice");
    notify("alice", "j2");
    cache.store("j1", "alice", "fresh", other);
    expect(cache.lookup("j1", "alice")).toBe("fresh");
    const off = new JobStatusCache<string>(0, () => () => undefined);
    off.store("j1", "alice", "x", off.mark("alice"));
    expect(off.lookup("j1", "alice")).toBeNull();
    cache.close();
  });

  it("shares one read among polls that miss together, but not across a change", async () => {
    const { cache, notify } = watching();
    const releases: Array<(value: string) => void> = [];
    let reads = 0;
    const read = () => {
      reads++;
      return new Promise<string>((resolve) => releases.push(resolve));
    };
    const first = cache.get("j1", "alice", read);
    const second = cache.get("j1", "alice", read);
    const stranger = cache.get("j1", "bob", read);
    expect(reads).toBe(2);
    notify("alice", "j1");
    const third = cache.get("j1", "alice", read);
    expect(reads).toBe(3);
    releases[0]?.("before");
    releases[1]?.("bob's");
    releases[2]?.("after");
    expect(await Promise.all([first, second, stranger, third])).toEqual([
      "before",
      "before",
      "bob's",
      "after",
    ]);
    expect(cache.lookup("j1", "alice")).toBe("after");
    cache.close();
  });
});

/** The status poll reads a few columns only: it must answer exactly what the full row does. */
describe("the status poll's narrow read", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await (await server.ctx.generation()).engine.work({ concurrency: 2 });
  });
  afterAll(() => server.close());

  it("answers as presentJobStatus of the whole row, and 404 for another user", async () => {
    const client = new TestClient(server.url);
    const { user } = await client.signUp("narrow@example.com");
    const other = new TestClient(server.url);
    const { user: stranger } = await other.signUp("narrow-other@example.com");
    const db = server.ctx.database.db;
    for (const model of ["flux-pro", "gemini-text"]) {
      const started = await client.json<{ requestId: string }>("POST", `/api/generate/${model}`, {
        nodeId: `node-${model}`,
        inputs: { prompt: "a lighthouse" },
      });
      expect(started.status).toBe(202);
      const id = started.body.requestId;
      const running = await readOwnJobStatus(db, user.id, id);
      expect(running.requestId).toBe(id);
      // Polls while it runs fill the route's cache; once the stream says it ended, the
      // poll says so too (the change notice dropped the older answer first).
      expect((await client.json("POST", "/api/queue/status", { requestId: id })).status).toBe(200);
      const done = await waitForJob(client, id);
      expect(done.status).toBe("COMPLETED");
      const polled = await client.json("POST", "/api/queue/status", { requestId: id });
      const full = presentJobStatus(await getOwnJob(db, user.id, id));
      expect(polled.body).toEqual(JSON.parse(JSON.stringify(full)));
      expect(await readOwnJobStatus(db, user.id, id)).toEqual(full);
      // A domain "not found" (the route layer answers it as 404).
      await expect(readOwnJobStatus(db, stranger.id, id)).rejects.toBeInstanceOf(NotFoundError);
      const answer = await other.json("POST", "/api/queue/status", { requestId: id });
      expect(answer).toMatchObject({ status: 404, body: { error: "Job not found" } });
    }
  });
});
