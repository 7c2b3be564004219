import { randomUUID } from "node:crypto";
import { FOLDER_ERRORS, validateFolderName } from "@atelier/core";
import { and, count, eq, inArray, max, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { folders, workflows } from "../db/schema.ts";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  OperationFailedError,
} from "../domain/errors.ts";

const FOLDER_NOT_FOUND = () => new NotFoundError("Folder not found");

export interface FolderView {
  id: string;
  name: string;
  workflow_count: number;
  last_workflow_modified: string | null;
}

function checkName(name: string): string {
  const message = validateFolderName(name);
  if (message) throw new InvalidInputError(message);
  return name.trim();
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

const duplicateName = (name: string) =>
  new ConflictError(`A folder named "${name}" already exists`);

/** Own folders with their workflow count and newest workflow change, by name. */
export async function listFolders(db: AppDb, userId: string): Promise<FolderView[]> {
  const rows = await db
    .select({
      id: folders.id,
      name: folders.name,
      workflowCount: count(workflows.id),
      lastModified: max(workflows.updatedAt),
    })
    .from(folders)
    .leftJoin(workflows, and(eq(workflows.folderId, folders.id), eq(workflows.userId, userId)))
    .where(eq(folders.userId, userId))
    .groupBy(folders.id, folders.name)
    .orderBy(sql`lower(${folders.name})`);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    workflow_count: Number(row.workflowCount),
    last_workflow_modified: row.lastModified ? new Date(row.lastModified).toISOString() : null,
  }));
}

async function folderView(db: AppDb, userId: string, id: string): Promise<FolderView> {
  const found = (await listFolders(db, userId)).find((folder) => folder.id === id);
  if (!found) throw FOLDER_NOT_FOUND();
  return found;
}

export async function createFolder(
  db: AppDb,
  userId: string,
  rawName: string,
): Promise<FolderView> {
  const name = checkName(rawName);
  const id = randomUUID();
  try {
    const now = new Date();
    await db.insert(folders).values({ id, userId, name, createdAt: now, updatedAt: now });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(name);
    throw new OperationFailedError(FOLDER_ERRORS.create);
  }
  return folderView(db, userId, id);
}

export async function renameFolder(
  db: AppDb,
  userId: string,
  id: string,
  rawName: string,
): Promise<FolderView> {
  const name = checkName(rawName);
  let updated: { id: string }[];
  try {
    updated = await db
      .update(folders)
      .set({ name, updatedAt: new Date() })
      .where(and(eq(folders.id, id), eq(folders.userId, userId)))
      .returning({ id: folders.id });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(name);
    throw new OperationFailedError(FOLDER_ERRORS.update);
  }
  if (updated.length === 0) throw FOLDER_NOT_FOUND();
  return folderView(db, userId, id);
}

/** Deletes a folder; its workflows stay, unfiled. */
export async function deleteFolder(db: AppDb, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(folders)
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    .returning({ id: folders.id });
  if (deleted.length === 0) throw FOLDER_NOT_FOUND();
}

/** "unfiled" → null; otherwise the id of one of the user's folders. */
export async function resolveFolderTarget(
  db: AppDb,
  userId: string,
  target: string,
): Promise<string | null> {
  if (target === "unfiled") return null;
  const [found] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, target), eq(folders.userId, userId)));
  if (!found) throw FOLDER_NOT_FOUND();
  return found.id;
}

/**
 * Moves own workflows into a folder (or unfiled). Every id must be the user's; otherwise
 * nothing moves and the answer is 404, as if the missing workflow did not exist.
 */
export async function moveWorkflows(
  db: AppDb,
  userId: string,
  target: string,
  ids: readonly string[],
) {
  const folderId = await resolveFolderTarget(db, userId, target);
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(workflows)
      .set({ folderId })
      .where(and(eq(workflows.userId, userId), inArray(workflows.id, unique)))
      .returning({ id: workflows.id });
    if (moved.length !== unique.length) throw new NotFoundError("Workflow not found");
    return moved.length;
  });
}
