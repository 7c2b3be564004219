import { randomBytes, randomUUID } from "node:crypto";
import { type CreateShareRequest, SHARE_LIMITS, SHARE_MESSAGES } from "@atelier/core";
import { and, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import type { ShareLinkRow, WorkflowRecord } from "../db/rows.ts";
import { shareLinks, workflows } from "../db/schema.ts";
import { InvalidInputError, NotFoundError } from "../domain/errors.ts";

/** 192 random bits, url-safe: a link cannot be guessed. */
const newShareToken = () => randomBytes(24).toString("base64url");

const stillValid = (now: Date) => or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now));

/**
 * Creates a link to the owner's workflow (the caller checked ownership). At most
 * SHARE_LIMITS.perWorkflow at once; the workflow's row is locked while counting.
 */
export async function createShareLink(
  db: AppDb,
  workflow: WorkflowRecord,
  request: CreateShareRequest,
  now = new Date(),
): Promise<ShareLinkRow> {
  const expiresAt = request.expiresAt ? new Date(request.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw new InvalidInputError(SHARE_MESSAGES.expiryInPast);
  return db.transaction(async (tx) => {
    await tx
      .select({ id: workflows.id })
      .from(workflows)
      .where(eq(workflows.id, workflow.id))
      .for("update");
    const [held] = await tx
      .select({ n: count() })
      .from(shareLinks)
      .where(eq(shareLinks.workflowId, workflow.id));
    if (Number(held?.n ?? 0) >= SHARE_LIMITS.perWorkflow)
      throw new InvalidInputError(SHARE_MESSAGES.tooMany);
    const [row] = await tx
      .insert(shareLinks)
      .values({
        id: randomUUID(),
        token: newShareToken(),
        workflowId: workflow.id,
        userId: workflow.userId,
        role: request.role,
        expiresAt,
      })
      .returning();
    return row as ShareLinkRow;
  });
}

/** The workflow's links, newest first (expired ones too: the dialog says so). */
export function listShareLinks(db: AppDb, workflowId: string): Promise<ShareLinkRow[]> {
  return db
    .select()
    .from(shareLinks)
    .where(eq(shareLinks.workflowId, workflowId))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

/** Revokes (deletes) one of the workflow's links; any other id is "Link not found…". */
export async function revokeShareLink(db: AppDb, workflowId: string, id: string): Promise<void> {
  const removed = await db
    .delete(shareLinks)
    .where(and(eq(shareLinks.id, id), eq(shareLinks.workflowId, workflowId)))
    .returning({ id: shareLinks.id });
  if (removed.length === 0) throw new NotFoundError(SHARE_MESSAGES.notFound);
}

/** The link a token names, if it is neither revoked nor expired, with its workflow. */
export async function findActiveShare(
  db: AppDb,
  token: string,
  now = new Date(),
): Promise<{ link: ShareLinkRow; workflow: WorkflowRecord } | null> {
  const [found] = await db
    .select({ link: shareLinks, workflow: workflows })
    .from(shareLinks)
    .innerJoin(workflows, eq(workflows.id, shareLinks.workflowId))
    .where(and(eq(shareLinks.token, token), stillValid(now)));
  return found ?? null;
}
