import { randomBytes, randomUUID } from "node:crypto";
import {
  APP_MESSAGES,
  appFormOf,
  type PublishAppRequest,
  type RunNode,
  zPublishAppRequest,
} from "@atelier/core";
import { eq, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { AppRow, WorkflowRecord } from "../../db/rows.ts";
import { apps } from "../../db/schema.ts";
import { InvalidInputError, NotFoundError } from "../../domain/errors.ts";
import { readWorkflowData } from "../workflow-storage/stored-form.ts";

/** A readable slug: the name's words, then random characters so slugs cannot be listed. */
function newSlug(name: string): string {
  const words = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  const tail = randomBytes(6)
    .toString("base64url")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x");
  return words ? `${words}-${tail}` : tail;
}

/**
 * Publishes the workflow's saved version as its app (or republishes it: same slug, the next
 * version). The form is checked against that version's graph; a field or output it cannot
 * serve is a 400 and nothing changes.
 */
export async function publishApp(
  db: AppDb,
  workflow: WorkflowRecord,
  body: PublishAppRequest,
): Promise<AppRow> {
  const request = zPublishAppRequest.parse(body);
  const name = request.name.trim();
  if (!name) throw new InvalidInputError(APP_MESSAGES.nameRequired);
  const data = await readWorkflowData(db, workflow);
  const graph = {
    nodes: (data?.nodes ?? []) as unknown as RunNode[],
    edges: data?.edges ?? [],
  };
  const form = appFormOf(graph, request.fields, request.outputs);
  if (!form.ok) throw new InvalidInputError(form.message);
  const values = {
    name,
    description: request.description?.trim() ?? "",
    access: request.access,
    fields: request.fields,
    outputs: request.outputs,
    graph: graph as { nodes: unknown[]; edges: unknown[] },
    basedOn: workflow.updatedAt.toISOString(),
    publishedAt: new Date(),
  };
  const [row] = await db
    .insert(apps)
    .values({
      id: randomUUID(),
      slug: newSlug(name),
      workflowId: workflow.id,
      userId: workflow.userId,
      ...values,
    })
    .onConflictDoUpdate({
      target: apps.workflowId,
      set: { ...values, version: sql`${apps.version} + 1` },
    })
    .returning();
  return row as AppRow;
}

/** The workflow's app, or 404 "This workflow has no published app". */
export async function getWorkflowApp(db: AppDb, workflowId: string): Promise<AppRow> {
  const [row] = await db.select().from(apps).where(eq(apps.workflowId, workflowId));
  if (!row) throw new NotFoundError(APP_MESSAGES.notPublished);
  return row;
}

/** The workflow's app, or null. */
export async function findWorkflowApp(db: AppDb, workflowId: string): Promise<AppRow | null> {
  const [row] = await db.select().from(apps).where(eq(apps.workflowId, workflowId));
  return row ?? null;
}

/** Unpublishes: the app's page and its run links stop working; its runs stay in history. */
export async function unpublishApp(db: AppDb, workflowId: string): Promise<void> {
  const removed = await db
    .delete(apps)
    .where(eq(apps.workflowId, workflowId))
    .returning({ id: apps.id });
  if (removed.length === 0) throw new NotFoundError(APP_MESSAGES.notPublished);
}

/** The app a slug names, or null. */
export async function findAppBySlug(db: AppDb, slug: string): Promise<AppRow | null> {
  const [row] = await db.select().from(apps).where(eq(apps.slug, slug));
  return row ?? null;
}
