import { randomUUID } from "node:crypto";
import { LIMITS, type SavedWorkflow, WORKFLOW_ERRORS, type WorkflowListQuery } from "@atelier/core";
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { WorkflowRecord } from "../../db/rows.ts";
import { folders, workflowMediaManifest, workflows } from "../../db/schema.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { announceWorkflowChange } from "../../realtime/events.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { refreshMediaRefs, removeUnreferencedFiles } from "../../storage/media-manifest.ts";
import { replaceChunks } from "./chunk-rows.ts";
import { nextTimestamp, refuseTooLarge, withId } from "./full-save.ts";
import { readWorkflowJson, type WorkflowJsonCache } from "./json-reader.ts";
import { recordVersion } from "./record-version.ts";
import { encodeWorkflow, partsOf, readWorkflowData, storedColumns } from "./stored-form.ts";
import type { WorkflowFields } from "./workflow-fields.ts";

const WORKFLOW_NOT_FOUND = () => new NotFoundError(WORKFLOW_ERRORS.notFound);

/** The folder must be the user's own; another user's folder does not exist for them. */
async function assertOwnFolder(db: AppDb, userId: string, folderId: string | null | undefined) {
  if (!folderId) return;
  const [found] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.userId, userId)));
  if (!found) throw new NotFoundError("Folder not found");
}

/** `text` as a LIKE pattern that matches it literally anywhere in a name. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * Own workflows, newest updated first (or by name), 100 a page from `offset`; `folderId`
 * "unfiled" means none; `q` keeps names containing it, in any case. `nextOffset` is null on
 * the last page.
 */
export async function listWorkflows(
  db: AppDb,
  userId: string,
  query: WorkflowListQuery = {},
): Promise<{ rows: WorkflowRecord[]; nextOffset: number | null }> {
  const { folderId, q, sort = "modified", offset = 0 } = query;
  const inFolder =
    folderId === undefined
      ? undefined
      : folderId === "unfiled"
        ? isNull(workflows.folderId)
        : eq(workflows.folderId, folderId);
  const named = q ? ilike(workflows.name, containing(q)) : undefined;
  const order =
    sort === "name"
      ? [asc(sql`lower(${workflows.name})`), desc(workflows.updatedAt)]
      : [desc(workflows.updatedAt)];
  const page = LIMITS.storage.workflowListLimit;
  const rows = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.userId, userId), inFolder, named))
    .orderBy(...order, asc(workflows.id))
    .limit(page + 1)
    .offset(offset);
  return {
    rows: rows.slice(0, page),
    nextOffset: rows.length > page ? offset + page : null,
  };
}

/** The row of a workflow the user may read: their own, or one made public. */
async function readableRow(tx: AppDb, userId: string, id: string): Promise<WorkflowRecord> {
  const [row] = await tx
    .select()
    .from(workflows)
    .where(
      and(eq(workflows.id, id), or(eq(workflows.userId, userId), eq(workflows.isPublic, true))),
    );
  if (!row) throw WORKFLOW_NOT_FOUND();
  return row;
}

/** Row and chunks read in one snapshot, so a concurrent save never mixes two versions. */
function inSnapshot<T>(db: AppDb, read: (tx: AppDb) => Promise<T>): Promise<T> {
  return db.transaction((transaction) => read(transaction as unknown as AppDb), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

/** A workflow the user may read, with its data parsed. */
export async function getReadableWorkflow(db: AppDb, userId: string, id: string) {
  return inSnapshot(db, async (tx) => {
    const row = await readableRow(tx, userId, id);
    return { row, data: await readWorkflowData(tx, row) };
  });
}

/** The same, with its data as UTF-8 JSON (what the open-a-workflow answer splices in). */
export async function getReadableWorkflowJson(
  db: AppDb,
  userId: string,
  id: string,
  cache?: WorkflowJsonCache,
) {
  return inSnapshot(db, async (tx) => {
    const row = await readableRow(tx, userId, id);
    return { row, json: await readWorkflowJson(tx, row, cache) };
  });
}

/** 404 unless every id is one of the user's workflows. */
export async function assertOwnWorkflows(db: AppDb, userId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const found = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.userId, userId), inArray(workflows.id, unique)));
  if (found.length !== unique.length) throw WORKFLOW_NOT_FOUND();
}

export async function getOwnWorkflowRow(
  db: AppDb,
  userId: string,
  id: string,
): Promise<WorkflowRecord> {
  const [row] = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, id), eq(workflows.userId, userId)));
  if (!row) throw WORKFLOW_NOT_FOUND();
  return row;
}

interface InsertInput extends WorkflowFields {
  data: SavedWorkflow;
  forkedFrom?: string | null;
  isTemplate?: boolean;
}

/** Writes a new workflow row (and its chunks) in the caller's transaction. */
async function insertWorkflow(
  tx: AppDb,
  userId: string,
  input: InsertInput,
): Promise<WorkflowRecord> {
  const id = randomUUID();
  const now = nextTimestamp();
  const parts = partsOf(input.data, id);
  const stored = encodeWorkflow({ ...parts, head: withId(parts.head, id) });
  refuseTooLarge(stored.bytes);
  const [row] = await tx
    .insert(workflows)
    .values({
      id,
      userId,
      name: input.name,
      description: input.description ?? null,
      folderId: input.folderId ?? null,
      isPublic: input.isPublic ?? false,
      thumbnailUrl: input.thumbnailUrl ?? null,
      mediaRefs: input.mediaRefs ?? [],
      forkedFrom: input.forkedFrom ?? null,
      isTemplate: input.isTemplate ?? false,
      ...storedColumns(stored),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await replaceChunks(tx, id, stored.bodies);
  await recordVersion(tx, row as WorkflowRecord, { authorId: userId }, stored.parts);
  await announceWorkflowChange(tx, { id, userId, updated_at: now.toISOString() });
  return row as WorkflowRecord;
}

export async function createWorkflow(
  db: AppDb,
  userId: string,
  input: WorkflowFields & { data: SavedWorkflow },
) {
  await assertOwnFolder(db, userId, input.folderId);
  const row = await db.transaction((tx) => insertWorkflow(tx as unknown as AppDb, userId, input));
  return { row, data: await readWorkflowData(db, row) };
}

/** Deletes a workflow, its chunks and manifest rows, then files no other workflow uses. */
export async function deleteWorkflow(db: AppDb, store: BlobStore, userId: string, id: string) {
  const paths = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const [row] = await tx
      .delete(workflows)
      .where(and(eq(workflows.id, id), eq(workflows.userId, userId)))
      .returning({ id: workflows.id });
    if (!row) throw WORKFLOW_NOT_FOUND();
    const removed = await tx
      .delete(workflowMediaManifest)
      .where(
        and(eq(workflowMediaManifest.workflowId, id), eq(workflowMediaManifest.userId, userId)),
      )
      .returning({ filePath: workflowMediaManifest.filePath });
    await announceWorkflowChange(tx, {
      id,
      userId,
      updated_at: new Date().toISOString(),
      deleted: true,
    });
    return removed.map((entry) => entry.filePath);
  });
  await removeUnreferencedFiles(db, store, paths);
}

/**
 * Copies a readable workflow for `userId` (fork or copy into a folder): same data, new id,
 * and manifest rows so the copy keeps its files when the original goes.
 */
export async function copyWorkflow(
  db: AppDb,
  userId: string,
  sourceId: string,
  options: {
    name?: string | undefined;
    folderId?: string | null | undefined;
    isPublic?: boolean | undefined;
    fork: boolean;
  },
) {
  const [source] = await db
    .select()
    .from(workflows)
    .where(
      and(
        eq(workflows.id, sourceId),
        options.fork
          ? or(
              eq(workflows.userId, userId),
              eq(workflows.isPublic, true),
              eq(workflows.isTemplate, true),
            )
          : eq(workflows.userId, userId),
      ),
    );
  if (!source) throw WORKFLOW_NOT_FOUND();
  await assertOwnFolder(db, userId, options.folderId);
  const data = await readWorkflowData(db, source);
  if (!data) throw WORKFLOW_NOT_FOUND();
  const name = options.name ?? (options.fork ? `${source.name} (fork)` : source.name);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const row = await insertWorkflow(tx, userId, {
      name,
      description: source.description ?? undefined,
      folderId:
        options.folderId !== undefined
          ? options.folderId
          : source.userId === userId
            ? source.folderId
            : null,
      isPublic: options.isPublic ?? false,
      thumbnailUrl: source.thumbnailUrl,
      forkedFrom: options.fork ? source.id : source.forkedFrom,
      data: {
        ...data,
        metadata: {
          ...data.metadata,
          name,
          forkedFrom: options.fork ? source.id : (data.metadata.forkedFrom ?? null),
        },
      },
    });
    const files = await tx
      .select()
      .from(workflowMediaManifest)
      .where(eq(workflowMediaManifest.workflowId, source.id));
    for (const file of files) {
      await tx
        .insert(workflowMediaManifest)
        .values({ ...file, id: randomUUID(), workflowId: row.id, userId });
    }
    // The copy's refs name its own manifest rows.
    await refreshMediaRefs(tx, row.id);
    if (options.fork) {
      await tx
        .update(workflows)
        .set({ forkCount: sql`${workflows.forkCount} + 1` })
        .where(eq(workflows.id, source.id));
    }
    return row;
  });
}
