import { WORKFLOW_ERRORS, workflowTooLargeMessage } from "@atelier/core";
import { and, eq } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { WorkflowRecord } from "../../db/rows.ts";
import { workflows } from "../../db/schema.ts";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  TooLargeError,
} from "../../domain/errors.ts";
import { announceWorkflowChange } from "../../realtime/events.ts";
import { replaceChunks } from "./chunk-rows.ts";
import { faultPoint } from "./fault-point.ts";
import { recordVersion, type VersionAuthor } from "./record-version.ts";
import { withRunResults } from "./run-results.ts";
import {
  encodeWorkflow,
  type StoredForm,
  storedColumns,
  type WorkflowParts,
} from "./stored-form.ts";
import type { WorkflowFields } from "./workflow-fields.ts";

export interface SaveFields extends Omit<WorkflowFields, "folderId"> {
  basedOn: string;
  /** Who saves, for the version the save records (the owner when not given). */
  author?: VersionAuthor | undefined;
}

export interface SaveResult {
  row: WorkflowRecord;
  /** Chunk rows written by this save (unchanged chunks are left alone). */
  chunksWritten: number;
  /** The number of the version the save recorded. */
  version: number;
}

/** A later instant than `previous`, in whole milliseconds (so it survives a JSON round trip). */
export function nextTimestamp(previous?: Date): Date {
  return new Date(Math.max(Date.now(), (previous?.getTime() ?? 0) + 1));
}

export function refuseTooLarge(bytes: number): void {
  const message = workflowTooLargeMessage(bytes);
  if (message) throw new TooLargeError(message);
}

export function parseBasedOn(basedOn: string): Date {
  const date = new Date(basedOn);
  if (Number.isNaN(date.getTime()))
    throw new InvalidInputError("Invalid request: basedOn must be a timestamp");
  return date;
}

/** 404 for a workflow that is not the user's, else 409 with the version that won. */
export async function conflictError(
  db: AppDb,
  userId: string,
  id: string,
): Promise<NotFoundError | ConflictError> {
  const [current] = await db
    .select({ updatedAt: workflows.updatedAt })
    .from(workflows)
    .where(and(eq(workflows.id, id), eq(workflows.userId, userId)));
  if (!current) return new NotFoundError(WORKFLOW_ERRORS.notFound);
  return new ConflictError("This workflow was saved elsewhere since you opened it.", {
    updated_at: current.updatedAt.toISOString(),
  });
}

/** The row columns a save sets besides its data. The folder is not part of a save. */
export function savedFields(input: SaveFields, updatedAt: Date) {
  return {
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.isPublic !== undefined ? { isPublic: input.isPublic } : {}),
    ...(input.thumbnailUrl !== undefined ? { thumbnailUrl: input.thumbnailUrl } : {}),
    ...(input.mediaRefs !== undefined ? { mediaRefs: input.mediaRefs } : {}),
    updatedAt,
  };
}

/**
 * Writes `stored` over a workflow row in the caller's transaction, only if nobody saved since
 * `basedOn`; null when the row is not there at that version.
 */
export async function writeStored(
  tx: AppDb,
  userId: string,
  id: string,
  input: SaveFields,
  stored: StoredForm,
): Promise<SaveResult | null> {
  const basedOn = parseBasedOn(input.basedOn);
  const updatedAt = nextTimestamp(basedOn);
  faultPoint("save:before-update");
  const [row] = await tx
    .update(workflows)
    .set({ ...savedFields(input, updatedAt), ...storedColumns(stored) })
    .where(
      and(eq(workflows.id, id), eq(workflows.userId, userId), eq(workflows.updatedAt, basedOn)),
    )
    .returning();
  if (!row) return null;
  faultPoint("save:row-updated");
  const chunksWritten = await replaceChunks(tx, id, stored.bodies);
  const version = await recordVersion(tx, row, input.author ?? { authorId: userId }, stored.parts);
  await announceWorkflowChange(tx, { id, userId, updated_at: updatedAt.toISOString() });
  faultPoint("save:before-commit");
  return { row, chunksWritten, version };
}

/**
 * Saves over a workflow in one transaction, only if nobody saved since `basedOn`: a stale
 * save answers 409 with the current `updated_at` and changes nothing.
 */
export async function saveWorkflow(
  db: AppDb,
  userId: string,
  id: string,
  input: SaveFields & { parts: WorkflowParts },
): Promise<SaveResult> {
  parseBasedOn(input.basedOn);
  const parts = {
    ...input.parts,
    head: withId(input.parts.head, id),
    nodes: await withRunResults(db, id, input.parts.nodes),
  };
  const stored = encodeWorkflow(parts);
  refuseTooLarge(stored.bytes);
  const saved = await db.transaction((tx) =>
    writeStored(tx as unknown as AppDb, userId, id, input, stored),
  );
  if (saved) return saved;
  throw await conflictError(db, userId, id);
}

/** The head with its metadata naming the row (whatever id the client had). */
export function withId<T extends WorkflowParts["head"]>(head: T, id: string): T {
  return { ...head, metadata: { ...head.metadata, id } };
}
