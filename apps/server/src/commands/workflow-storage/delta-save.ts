import { type DeltaSaveRequest, type ItemText, itemTexts, type SavedEdge } from "@atelier/core";
import { and, eq } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { workflows } from "../../db/schema.ts";
import { InvalidInputError } from "../../domain/errors.ts";
import { announceWorkflowChange } from "../../realtime/events.ts";
import { rewriteChunks } from "./chunk-rows.ts";
import { type Delta, planInPlace } from "./delta-in-place-plan.ts";
import { faultPoint } from "./fault-point.ts";
import {
  conflictError,
  nextTimestamp,
  parseBasedOn,
  refuseTooLarge,
  type SaveResult,
  savedFields,
  withId,
  writeStored,
} from "./full-save.ts";
import { recordVersion, type VersionAuthor } from "./record-version.ts";
import { withRunResults } from "./run-results.ts";
import { byteLength, encodeWorkflow, readWorkflowData } from "./stored-form.ts";
import { checkWithCheckedNodes } from "./structure-checks.ts";

/** A delta naming a node twice (or changing and removing it) has no single meaning. */
function refuseAmbiguous(input: DeltaSaveRequest): void {
  const seen = new Set<string>();
  for (const id of [...input.nodes.map((node) => node.id), ...input.removed]) {
    if (seen.has(id)) throw new InvalidInputError(`Invalid request: node ${id} appears twice`);
    seen.add(id);
  }
}

/**
 * Saves only what changed since `basedOn`, which must be the current version (else 409, as a
 * full save): the chunks holding the changed nodes are rewritten and nothing else. Reads
 * afterwards give exactly what a full save of the same document would.
 */
export async function deltaSave(
  db: AppDb,
  userId: string,
  id: string,
  input: DeltaSaveRequest,
  author?: VersionAuthor,
): Promise<SaveResult> {
  const basedOn = parseBasedOn(input.basedOn);
  refuseAmbiguous(input);
  const delta: Delta = {
    head: withId(input.data, id),
    changed: await withRunResults(db, id, itemTexts(input.nodes, byteLength)),
    removed: new Set(input.removed),
    edges: input.edges ? { items: itemTexts(input.edges, byteLength), parsed: input.edges } : null,
  };
  const saved = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const [row] = await tx
      .select()
      .from(workflows)
      .where(
        and(eq(workflows.id, id), eq(workflows.userId, userId), eq(workflows.updatedAt, basedOn)),
      )
      .for("update");
    if (!row) return null;
    const plan = await planInPlace(tx, row, delta);
    if (!plan) {
      const stored = encodeWorkflow(await applyToWhole(tx, row, delta));
      refuseTooLarge(stored.bytes);
      return writeStored(tx, userId, id, { ...input, author }, stored);
    }
    const updatedAt = nextTimestamp(basedOn);
    faultPoint("save:before-update");
    const [updated] = await tx
      .update(workflows)
      .set({ ...savedFields(input, updatedAt), ...plan.columns })
      .where(eq(workflows.id, id))
      .returning();
    faultPoint("save:row-updated");
    const chunksWritten = await rewriteChunks(tx, id, plan.remove, plan.add);
    const version = await recordVersion(tx, updated as typeof row, author ?? { authorId: userId });
    await announceWorkflowChange(tx, { id, userId, updated_at: updatedAt.toISOString() });
    faultPoint("save:before-commit");
    return { row: updated as typeof row, chunksWritten, version };
  });
  if (saved) return saved;
  throw await conflictError(db, userId, id);
}

const textOf = (node: { id: string }): ItemText => {
  const text = JSON.stringify(node);
  return { id: node.id, text, bytes: byteLength(text) };
};

/** The delta applied to the whole stored document, for layouts the in-place path leaves. */
async function applyToWhole(tx: AppDb, row: typeof workflows.$inferSelect, delta: Delta) {
  const current = await readWorkflowData(tx, row);
  const replacement = new Map(delta.changed.map((node) => [node.id, node]));
  const kept = new Set<string>();
  const nodes: ItemText[] = [];
  for (const node of current?.nodes ?? []) {
    if (delta.removed.has(node.id)) continue;
    kept.add(node.id);
    nodes.push(replacement.get(node.id) ?? textOf(node));
  }
  nodes.push(...delta.changed.filter((node) => !kept.has(node.id)));
  const edges: SavedEdge[] = delta.edges?.parsed ?? current?.edges ?? [];
  checkWithCheckedNodes(
    { ...delta.head, edges },
    nodes.map((node) => node.id),
  );
  return {
    head: delta.head,
    nodes,
    edges: delta.edges?.items ?? itemTexts(edges, byteLength),
  };
}
