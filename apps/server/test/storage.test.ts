import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { text } from "node:stream/consumers";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlobStore } from "../src/storage/blob-store.ts";
import { createFsStore } from "../src/storage/fs-store.ts";
import { createS3Store } from "../src/storage/s3-store.ts";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { freePort, startTestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

/** The contract both stores keep. */
function storeContract(name: string, open: () => Promise<BlobStore>) {
  describe(`${name} store`, () => {
    let store: BlobStore;
    beforeAll(async () => {
      store = await open();
    });

    it("puts, gets, lists and deletes files", async () => {
      await store.put("u1/w1/a.txt", Buffer.from("alpha"), "text/plain");
      await store.put("u1/w1/b.txt", Buffer.from("beta"), "text/plain");
      await store.put("u1/w2/c.txt", Buffer.from("gamma"), "text/plain");
      const got = await store.get("u1/w1/a.txt");
      expect(got?.size).toBe(5);
      expect(await text(got?.body as NodeJS.ReadableStream)).toBe("alpha");
      expect((await store.list("u1/w1/")).sort()).toEqual(["u1/w1/a.txt", "u1/w1/b.txt"]);
      await store.delete(["u1/w1/a.txt", "u1/w1/b.txt"]);
      expect(await store.get("u1/w1/a.txt")).toBeNull();
      expect(await store.list("u1/w1/")).toEqual([]);
      expect(await store.ping()).toBe(true);
    });

    it("never overwrites a file", async () => {
      await store.put("u1/w3/once.txt", Buffer.from("first"), "text/plain");
      await expect(
        store.put("u1/w3/once.txt", Buffer.from("second"), "text/plain"),
      ).rejects.toThrow();
      expect(await text((await store.get("u1/w3/once.txt"))?.body as NodeJS.ReadableStream)).toBe(
        "first",
      );
    });

    it("refuses keys that climb out of the bucket", async () => {
      await expect(store.put("../escape.txt", Buffer.from("x"), "text/plain")).rejects.toThrow(
        "Unsafe storage key",
      );
      await expect(store.get("a/../../b")).rejects.toThrow("Unsafe storage key");
    });
  });
}

const fsRoot = mkdtempSync(join(tmpdir(), "atelier-fs-store-"));
storeContract("filesystem", async () => createFsStore(fsRoot, "workflow-media"));

describe("S3-compatible storage", () => {
  let s3: S3rver;
  let endpoint: string;
  const s3Dir = mkdtempSync(join(tmpdir(), "atelier-s3-"));
  const options = () => ({
    endpoint,
    bucket: "workflow-media",
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  });

  beforeAll(async () => {
    const port = await freePort();
    s3 = new S3rver({ port, address: "127.0.0.1", directory: s3Dir, silent: true });
    await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await s3.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  storeContract("S3", () => createS3Store(options()));

  it("serves uploads end to end from the bucket", async () => {
    const store = await createS3Store(options());
    const server = await startTestServer({}, store);
    try {
      const alice = new TestClient(server.url);
      await alice.signUp("alice@example.com");
      const workflowId = (
        await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
          name: "W",
          data: makeWorkflow(),
        })
      ).body.workflow.id;
      const bytes = await pngBytes();
      const response = await alice.raw("POST", "/api/media", {
        body: uploadForm({ name: "a.png", type: "image/png", bytes }, { workflowId }),
      });
      const uploaded = (await response.json()) as { url: string; path: string };
      expect(response.status).toBe(201);
      expect(await store.list(uploaded.path)).toEqual([uploaded.path]);
      const served = await fetch(uploaded.url);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      const health = await alice.json("GET", "/api/ready");
      expect(health.body).toEqual({ ok: true, db: true, queue: true, storage: true });
    } finally {
      await server.close();
    }
  });
});
