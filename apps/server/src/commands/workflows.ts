import { randomUUID } from "node:crypto";
import {
  LIMITS,
  type SavedWorkflow,
  WORKFLOW_ERRORS,
  workflowTooLargeMessage,
} from "@atelier/core";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { folders, workflowMediaManifest, workflows } from "../db/schema.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { announceWorkflowChange } from "../realtime/events.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { faultPoint } from "./fault-point.ts";
import { removeUnreferencedFiles } from "./media.ts";
import { encodeWorkflowData, readWorkflowData, writeChunks } from "./workflow-data.ts";

export type WorkflowRecord = typeof workflows.$inferSelect;

export interface WorkflowFields {
  name: string;
  description?: string | undefined;
  folderId?: string | null | undefined;
  isPublic?: boolean | undefined;
  thumbnailUrl?: string | null | undefined;
  mediaRefs?: string[] | undefined;
}

const WORKFLOW_NOT_FOUND = () => notFound(WORKFLOW_ERRORS.notFound);

/** A later instant than `previous`, in whole milliseconds (so it survives a JSON round trip). */
function nextTimestamp(previous?: Date): Date {
  return new Date(Math.max(Date.now(), (previous?.getTime() ?? 0) + 1));
}

function refuseTooLarge(bytes: number): void {
  const message = workflowTooLargeMessage(bytes);
  if (message) throw new HttpError(413, message);
}

/** The folder must be the user's own; another user's folder does not exist for them. */
async function assertOwnFolder(db: AppDb, userId: string, folderId: string | null | undefined) {
  if (!folderId) return;
  const [found] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.userId, userId)));
  if (!found) throw notFound("Folder not found");
}

/** Own workflows, newest updated first, at most 100; `folderId` "unfiled" means none. */
export async function listWorkflows(db: AppDb, userId: string, folderId?: string) {
  const inFolder =
    folderId === undefined
      ? undefined
      : folderId === "unfiled"
        ? isNull(workflows.folderId)
        : eq(workflows.folderId, folderId);
  return db
    .select()
    .from(workflows)
    .where(and(eq(workflows.userId, userId), inFolder))
    .orderBy(desc(workflows.updatedAt))
    .limit(LIMITS.storage.workflowListLimit);
}

/**
 * A workflow the user may read (their own, or one made public), row and chunks read in one
 * snapshot so a concurrent save can never pair one version's row with another's chunks.
 */
export async function getReadableWorkflow(db: AppDb, userId: string, id: string) {
  return db.transaction(
    async (transaction) => {
      const tx = transaction as unknown as AppDb;
      const [row] = await tx
        .select()
        .from(workflows)
        .where(
          and(eq(workflows.id, id), or(eq(workflows.userId, userId), eq(workflows.isPublic, true))),
        );
      if (!row) throw WORKFLOW_NOT_FOUND();
      return { row, data: await readWorkflowData(tx, row) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
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
  const data: SavedWorkflow = { ...input.data, metadata: { ...input.data.metadata, id } };
  const stored = encodeWorkflowData(data);
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
      data: stored.chunked ? null : stored.json,
      isChunked: stored.chunked,
      dataSizeBytes: stored.bytes,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const chunkCount = await writeChunks(tx, id, data, stored);
  if (chunkCount > 0) await tx.update(workflows).set({ chunkCount }).where(eq(workflows.id, id));
  await announceWorkflowChange(tx, { id, userId, updated_at: now.toISOString() });
  return { ...(row as WorkflowRecord), chunkCount };
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

/**
 * Saves over a workflow in one transaction, only if nobody saved since `basedOn`: a stale
 * save answers 409 with the current `updated_at` and changes nothing. The folder is not
 * part of a save (folder moves do not bump `updated_at`, so a save must not undo one).
 */
export async function saveWorkflow(
  db: AppDb,
  userId: string,
  id: string,
  input: WorkflowFields & { data: SavedWorkflow; basedOn: string },
) {
  const basedOn = new Date(input.basedOn);
  if (Number.isNaN(basedOn.getTime()))
    throw new HttpError(400, "Invalid request: basedOn must be a timestamp");
  const data: SavedWorkflow = { ...input.data, metadata: { ...input.data.metadata, id } };
  const encoded = encodeWorkflowData(data);
  refuseTooLarge(encoded.bytes);

  const saved = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const updatedAt = nextTimestamp(basedOn);
    faultPoint("save:before-update");
    const [row] = await tx
      .update(workflows)
      .set({
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.isPublic !== undefined ? { isPublic: input.isPublic } : {}),
        ...(input.thumbnailUrl !== undefined ? { thumbnailUrl: input.thumbnailUrl } : {}),
        ...(input.mediaRefs !== undefined ? { mediaRefs: input.mediaRefs } : {}),
        data: encoded.chunked ? null : encoded.json,
        isChunked: encoded.chunked,
        dataSizeBytes: encoded.bytes,
        updatedAt,
      })
      .where(
        and(eq(workflows.id, id), eq(workflows.userId, userId), eq(workflows.updatedAt, basedOn)),
      )
      .returning();
    if (!row) return null;
    faultPoint("save:row-updated");
    const chunkCount = await writeChunks(tx, id, data, encoded);
    await tx.update(workflows).set({ chunkCount }).where(eq(workflows.id, id));
    await announceWorkflowChange(tx, { id, userId, updated_at: updatedAt.toISOString() });
    faultPoint("save:before-commit");
    return { ...row, chunkCount };
  });
  if (saved) return { row: saved, data };

  const current = await getOwnWorkflowRow(db, userId, id);
  throw new HttpError(409, "This workflow was saved elsewhere since you opened it.", {
    updated_at: current.updatedAt.toISOString(),
  });
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
      mediaRefs: source.mediaRefs,
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
    if (options.fork) {
      await tx
        .update(workflows)
        .set({ forkCount: sql`${workflows.forkCount} + 1` })
        .where(eq(workflows.id, source.id));
    }
    return row;
  });
}
