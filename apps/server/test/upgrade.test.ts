import { createHash } from "node:crypto";
import type { SavedWorkflow } from "@atelier/core";
import { hashPassword } from "better-auth/crypto";
import { afterAll, describe, expect, it } from "vitest";
import { encodeWorkflow, partsOf } from "../src/commands/workflow-storage/stored-form.ts";
import { currentSchemaHead, schemaHeadOf } from "../src/ops/backup/schema-head.ts";
import type { Queryable } from "../src/ops/backup/table-counts.ts";
import { TestClient } from "./helpers/client.ts";
import { createDataPlace, type DataPlace, startServerOn } from "./helpers/data-place.ts";
import { TEST_DB_KIND } from "./helpers/database.ts";
import { type OldDatabase, openOldDatabase, RELEASES } from "./helpers/old-schema.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

const PASSWORD = "correct horse battery";
const USER = "user-from-old-release";

/** A workflow row and its chunks as the old schema holds them (whole, or chunked over 5 MB). */
async function insertWorkflow(
  db: OldDatabase,
  id: string,
  data: SavedWorkflow,
  folderId: string | null,
) {
  const stored = encodeWorkflow(partsOf(data, id));
  await db.query(
    // updated_at is the save version; the app writes it from JS, in milliseconds.
    `insert into workflows (id, name, data, user_id, folder_id, is_chunked, chunk_count, data_size_bytes, chunk_head, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      data.metadata.name,
      stored.json,
      USER,
      folderId,
      stored.chunked,
      stored.bodies.length,
      stored.bytes,
      stored.head,
      new Date(),
    ],
  );
  for (const [position, body] of stored.bodies.entries())
    await db.query(
      `insert into workflow_chunks (workflow_id, chunk_index, chunk_type, data, size_bytes, content_hash, node_ids)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        position + 1,
        body.chunk_type,
        body.data,
        body.size_bytes,
        createHash("sha1").update(body.data).digest("hex"),
        body.chunk_type === "nodes" ? body.nodeIds : null,
      ],
    );
  return stored.chunked;
}

// "Upgrades: migrations at start, tested from the previous tagged schema": a database left by
// each release (src/db/releases.json) starts on this version, which migrates it at start.
describe.each(RELEASES)(
  `upgrade from $version (schema $schemaHead, ${TEST_DB_KIND})`,
  (release) => {
    const places: DataPlace[] = [];
    afterAll(async () => {
      for (const place of places) await place.drop();
    });

    it("migrates at start; the old rows open and new features work on them", async () => {
      const place = await createDataPlace();
      places.push(place);
      const old = await openOldDatabase(
        { dataDir: place.dataDir, url: place.databaseUrl },
        release.schemaHead,
      );
      const asQueryable: Queryable = { query: (sql) => old.query(sql) as never };
      expect((await schemaHeadOf(asQueryable)).tag).toBe(release.schemaHead);

      await old.query(
        `insert into "user" (id, name, email, email_verified) values ($1, 'Old', 'old-release@example.com', true)`,
        [USER],
      );
      await old.query(
        `insert into account (id, account_id, provider_id, user_id, password) values ('acc-old', $1, 'credential', $1, $2)`,
        [USER, await hashPassword(PASSWORD)],
      );
      await old.query(`insert into folders (id, user_id, name) values ('folder-old', $1, 'Kept')`, [
        USER,
      ]);
      const small = makeWorkflow("Old small", 3);
      const big = makeWorkflow("Old big", 120, 50_000);
      expect(await insertWorkflow(old, "wf-old-small", small, "folder-old")).toBe(false);
      expect(await insertWorkflow(old, "wf-old-big", big, null)).toBe(true);
      await old.query(
        `insert into jobs (id, user_id, workflow_id, node_id, model, provider, endpoint, status, step, input, outputs, callback_token, completed_at)
       values ('job-old', $1, 'wf-old-small', 'n1', 'flux-pro', 'local', 'fal-ai/flux-pro', 'COMPLETED', 'done', '{}'::jsonb, '[]'::jsonb, 'callback-old', now())`,
        [USER],
      );
      await old.close();

      const server = await startServerOn(place);
      try {
        const client = new TestClient(server.url);
        expect((await client.signIn("old-release@example.com", PASSWORD)).status).toBe(200);
        const listed = await client.json<{ workflows: { id: string }[] }>("GET", "/api/workflows");
        expect(listed.body.workflows.map((row) => row.id).sort()).toEqual([
          "wf-old-big",
          "wf-old-small",
        ]);
        for (const [id, data] of [
          ["wf-old-small", small],
          ["wf-old-big", big],
        ] as const) {
          const open = await client.json<{ workflow: { data: SavedWorkflow; folder_id: string } }>(
            "GET",
            `/api/workflows/${id}`,
          );
          expect(open.status).toBe(200);
          expect(open.body.workflow.data).toEqual({ ...data, metadata: { ...data.metadata, id } });
        }
        const folders = await client.json<{ folders: { id: string; name: string }[] }>(
          "GET",
          "/api/folders",
        );
        expect(folders.body.folders).toEqual([
          expect.objectContaining({ id: "folder-old", name: "Kept" }),
        ]);
        const jobs = await client.json<{ jobs: { id?: string; status: string }[] }>(
          "GET",
          "/api/queue/jobs",
        );
        expect(jobs.status).toBe(200);
        expect(jobs.body.jobs).toEqual([expect.objectContaining({ status: "COMPLETED" })]);

        // Features newer than the release work on its rows: a save records a version.
        const opened = await client.json<{ workflow: { updated_at: string } }>(
          "GET",
          "/api/workflows/wf-old-big",
        );
        const saved = await client.json("PUT", "/api/workflows/wf-old-big", {
          name: "Old big",
          basedOn: opened.body.workflow.updated_at,
          data: makeWorkflow("Old big", 121, 50_000),
        });
        expect(saved.status).toBe(200);
        const versions = await client.json<{ versions: unknown[] }>(
          "GET",
          "/api/workflows/wf-old-big/versions",
        );
        expect(versions.body.versions).toHaveLength(1);
      } finally {
        await server.close();
      }
      // The start took the schema to this version's last migration (reopening adds none).
      const current = currentSchemaHead().tag as string;
      const after = await openOldDatabase(
        { dataDir: place.dataDir, url: place.databaseUrl },
        current,
      );
      const head = await schemaHeadOf({ query: (sql) => after.query(sql) as never });
      await after.close();
      expect(head.tag).toBe(current);
    }, 240_000);
  },
);
