import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SavedWorkflow } from "@atelier/core";
import S3rver from "s3rver";
import { afterAll, describe, expect, it } from "vitest";
import { createBackup } from "../src/ops/backup/backup.ts";
import { BackupError } from "../src/ops/backup/errors.ts";
import { restoreBackup } from "../src/ops/backup/restore.ts";
import { currentSchemaHead } from "../src/ops/backup/schema-head.ts";
import { createS3Store, type S3Options } from "../src/storage/s3-store.ts";
import { TestClient } from "./helpers/client.ts";
import { createDataPlace, type DataPlace, startServerOn } from "./helpers/data-place.ts";
import { TEST_DB_KIND } from "./helpers/database.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { freePort } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Summary {
  id: string;
}
interface Opened {
  workflow: { id: string; updated_at: string; is_chunked: boolean; data: SavedWorkflow };
}

/** Every workflow `client` owns, through the paged list. */
async function listAll(client: TestClient): Promise<string[]> {
  const ids: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page: { status: number; body: { workflows: Summary[]; nextOffset: number | null } } =
      await client.json<{ workflows: Summary[]; nextOffset: number | null }>(
        "GET",
        `/api/workflows?offset=${offset}`,
      );
    expect(page.status).toBe(200);
    ids.push(...page.body.workflows.map((summary) => summary.id));
    offset = page.body.nextOffset ?? null;
  }
  return ids.sort();
}

/** What a user sees of their workflows: each one opened, and its version list. */
async function openEverything(client: TestClient, base: string) {
  const opened: Record<string, unknown> = {};
  for (const id of await listAll(client)) {
    const open = await client.raw("GET", `/api/workflows/${id}`);
    expect(open.status).toBe(200);
    const versions = await client.json("GET", `/api/workflows/${id}/versions`);
    expect(versions.status).toBe(200);
    // Answers name the server's own address; the restored one listens elsewhere.
    opened[id] = JSON.parse(
      JSON.stringify({ open: await open.json(), versions: versions.body }).replaceAll(base, ""),
    );
  }
  return opened;
}

// The acceptance: a backup restored into a fresh data dir (PGlite) or a fresh
// database (PostgreSQL) opens every workflow as it was, with its media.
describe(`backup → restore (${TEST_DB_KIND})`, () => {
  const places: DataPlace[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    for (const place of places) await place.drop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("restores users, every workflow (whole and chunked), versions and media", async () => {
    const source = await createDataPlace();
    places.push(source);
    const server = await startServerOn(source);
    const alice = new TestClient(server.url);
    const bob = new TestClient(server.url);
    await alice.signUp("alice-backup@example.com");
    await bob.signUp("bob-backup@example.com");

    const create = async (client: TestClient, data: SavedWorkflow) => {
      const answer = await client.json<Opened>("POST", "/api/workflows", {
        name: data.metadata.name,
        data,
      });
      expect(answer.status).toBe(201);
      return answer.body.workflow;
    };
    const small = await create(alice, makeWorkflow("Small", 3));
    // 120 nodes of 50 KB: over 5 MB, so stored in chunks.
    const big = await create(alice, makeWorkflow("Big", 120, 50_000));
    expect(big.is_chunked).toBe(true);
    await create(bob, makeWorkflow("Bob's", 2));
    // A second save: a version to restore.
    const edited = makeWorkflow("Small", 4);
    const saved = await alice.json("PUT", `/api/workflows/${small.id}`, {
      name: "Small",
      basedOn: small.updated_at,
      data: edited,
    });
    expect(saved.status).toBe(200);
    const bytes = await pngBytes(16, 16);
    const uploaded = await alice.raw("POST", "/api/media", {
      body: uploadForm(
        { name: "photo.png", type: "image/png", bytes },
        { workflowId: small.id, kind: "image" },
      ),
    });
    expect(uploaded.status).toBe(201);
    const media = (await uploaded.json()) as { path: string };

    const before = {
      alice: await openEverything(alice, server.url),
      bob: await openEverything(bob, server.url),
    };
    expect(Object.keys(before.alice)).toHaveLength(2);
    const cookie = alice.cookieHeader();

    // PGlite is backed up with the server stopped; pg_dump takes its snapshot while it runs.
    if (TEST_DB_KIND === "pglite") await server.close();
    const out = join(mkdtempSync(join(tmpdir(), "atelier-backup-")), "backup");
    folders.push(join(out, ".."));
    const lines: string[] = [];
    const manifest = await createBackup(source.config(), {
      out,
      print: (line) => lines.push(line),
    });
    if (TEST_DB_KIND === "postgres") await server.close();
    expect(manifest).toMatchObject({
      format: "atelier-backup",
      schemaHead: { tag: currentSchemaHead().tag },
      database: { kind: TEST_DB_KIND },
      media: { kind: "fs", files: 1, bytes: bytes.length },
      authSecret: "auth-secret",
      counts: { users: 2, workflows: 3, mediaFiles: 1 },
    });
    expect(manifest.counts.versions).toBeGreaterThanOrEqual(4);
    expect(lines.at(-1)).toMatch(/^Backup done: 3 workflows, 2 users, 1 files/);

    const target = await createDataPlace();
    places.push(target);
    const restored = await restoreBackup(target.config(), {
      from: out,
      print: (line) => lines.push(line),
    });
    expect(restored.counts).toEqual(manifest.counts);
    expect(lines.at(-1)).toMatch(/^Restore done: 3 workflows, 2 users, 1 files/);
    // A second restore onto the same place is refused without --force.
    await expect(restoreBackup(target.config(), { from: out, print: () => {} })).rejects.toThrow(
      BackupError,
    );

    const after = await startServerOn(target);
    try {
      // The session from before still holds: the generated auth secret came back too.
      const session = await fetch(`${after.url}/api/auth/get-session`, { headers: { cookie } });
      expect(((await session.json()) as { user: { email: string } }).user.email).toBe(
        "alice-backup@example.com",
      );
      const aliceAgain = new TestClient(after.url);
      const bobAgain = new TestClient(after.url);
      expect((await aliceAgain.signIn("alice-backup@example.com")).status).toBe(200);
      expect((await bobAgain.signIn("bob-backup@example.com")).status).toBe(200);
      expect(await openEverything(aliceAgain, after.url)).toEqual(before.alice);
      expect(await openEverything(bobAgain, after.url)).toEqual(before.bob);
      const served = await fetch(`${after.url}/api/media/file/${media.path}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      // And it goes on working: a save on the restored data.
      const open = (await aliceAgain.json<Opened>("GET", `/api/workflows/${big.id}`)).body;
      const next = await aliceAgain.json("PUT", `/api/workflows/${big.id}`, {
        name: "Big",
        basedOn: open.workflow.updated_at,
        data: makeWorkflow("Big", 121, 50_000),
      });
      expect(next.status).toBe(200);
    } finally {
      await after.close();
    }
  }, 240_000);

  it("with a bucket: lists its objects, and a restore names those the bucket lacks", async () => {
    const port = await freePort();
    const s3Dir = mkdtempSync(join(tmpdir(), "atelier-s3-"));
    folders.push(s3Dir);
    const s3 = new S3rver({ port, address: "127.0.0.1", directory: s3Dir, silent: true });
    await s3.run();
    try {
      const bucket = {
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: "backup-media",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      };
      const source = await createDataPlace(bucket);
      places.push(source);
      // One start makes the database and the bucket.
      const server = await startServerOn(source);
      await server.ctx.store.put("u/w/kept.png", await pngBytes(), "image/png");
      await server.ctx.store.put("u/w/lost.png", await pngBytes(12, 12), "image/png");
      await server.close();

      const out = join(mkdtempSync(join(tmpdir(), "atelier-backup-")), "backup");
      folders.push(join(out, ".."));
      const manifest = await createBackup(source.config(), { out, print: () => {} });
      expect(manifest.media).toMatchObject({ kind: "s3", bucket: "backup-media", files: 2 });
      expect(existsSync(join(out, "media"))).toBe(false);

      const store = await createS3Store(source.config().s3 as S3Options);
      await store.delete(["u/w/lost.png"]);
      const target = await createDataPlace(bucket);
      places.push(target);
      const lines: string[] = [];
      const restored = await restoreBackup(target.config(), {
        from: out,
        print: (line) => lines.push(line),
      });
      expect(restored.missing.map((object) => object.key)).toEqual(["u/w/lost.png"]);
      expect(lines).toContainEqual(expect.stringContaining("1 of 2 objects are missing"));
    } finally {
      await s3.close();
    }
  }, 240_000);
});
