import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { invites } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";

export type InviteRow = typeof invites.$inferSelect;

/** An admin's invitation: 192 random bits, for one address or whoever holds it. */
export async function createInvite(
  db: AppDb,
  adminId: string,
  request: { email?: string | undefined; expiresInDays: number },
): Promise<InviteRow> {
  const [row] = await db
    .insert(invites)
    .values({
      id: randomUUID(),
      token: randomBytes(24).toString("base64url"),
      email: request.email?.toLowerCase() ?? null,
      createdBy: adminId,
      expiresAt: new Date(Date.now() + request.expiresInDays * 86_400_000),
    })
    .returning();
  return row as InviteRow;
}

/** Every invitation, newest first (used and expired ones too). */
export function listInvites(db: AppDb): Promise<InviteRow[]> {
  return db.select().from(invites).orderBy(desc(invites.createdAt), desc(invites.id)).limit(500);
}

/** Withdraws an invitation; an unknown id is 404. */
export async function deleteInvite(db: AppDb, id: string): Promise<void> {
  const removed = await db.delete(invites).where(eq(invites.id, id)).returning({ id: invites.id });
  if (removed.length === 0) throw new NotFoundError("Invitation not found");
}

/** The invitation a token names, if it is neither used nor expired. */
export async function findUsableInvite(db: AppDb, token: string): Promise<InviteRow | null> {
  const [row] = await db.select().from(invites).where(usable(token));
  return row ?? null;
}

/** Marks the invitation used; false when someone used it meanwhile. */
export async function spendInvite(db: AppDb, token: string): Promise<boolean> {
  const spent = await db
    .update(invites)
    .set({ usedAt: sql`now()` })
    .where(usable(token))
    .returning({ id: invites.id });
  return spent.length > 0;
}

const usable = (token: string) =>
  and(eq(invites.token, token), isNull(invites.usedAt), gt(invites.expiresAt, sql`now()`));
