import { rowThumbnail, zCommitSaveRequest, zSaveBatchRequest } from "@atelier/core";
import type { AppDb } from "../../db/client.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { type SaveResult, saveWorkflow } from "./full-save.ts";
import { SaveStaging } from "./staged-batches-memory.ts";
import { OwnedSaves, type SaveIds } from "./staged-batches-store.ts";
import { partsOf } from "./stored-form.ts";
import { checkNodes, checkWithCheckedNodes } from "./structure-checks.ts";

export interface StagedSaveLimits {
  memoryBytes: number;
  perUser: { saves: number; bytes: number };
}

/**
 * A batch save (SPEC §9, over 2 MB): node batches are staged, then committed in one save.
 * Nodes are checked as they arrive, so the commit puts their texts together unparsed. A save
 * is dozens of requests from one tab: the workflow is asked about once per save (`mayEdit`,
 * the route's policy), and the commit's write is owner-scoped all the same.
 */
export class StagedSaves {
  private readonly owned = new OwnedSaves();
  private readonly staging: SaveStaging;

  constructor(
    private readonly db: AppDb,
    store: BlobStore,
    limits: StagedSaveLimits,
  ) {
    this.staging = new SaveStaging(store, limits.memoryBytes, { perUser: limits.perUser });
  }

  /** Stages (or replaces) batch `index`; its nodes are checked before anything is kept. */
  async stage(ids: SaveIds, index: number, body: unknown, mayEdit: () => Promise<unknown>) {
    checkNodes((body as { nodes?: unknown } | null)?.nodes);
    const { nodes } = zSaveBatchRequest.parse(body ?? {});
    await this.owned.check(ids, mayEdit);
    await this.staging.stage(ids, index, nodes);
  }

  /**
   * Saves the workflow from its staged batches and the commit's head, then drops them. The
   * batches are the saver's (`ids.userId`); the workflow is its owner's (`ownerId`: the saver
   * or, through an edit link, the person who shared it).
   */
  async commit(
    ownerId: string,
    ids: SaveIds,
    body: unknown,
    mayEdit: () => Promise<unknown>,
  ): Promise<SaveResult> {
    await this.owned.check(ids, mayEdit);
    const raw = (body ?? {}) as { data?: Record<string, unknown>; batches?: unknown };
    // The count is checked before anything is read for it.
    const count = zCommitSaveRequest.shape.batches.parse(raw.batches);
    const nodes = await this.staging.read(ids, count);
    const head = { ...raw.data, nodes: [] };
    checkWithCheckedNodes(
      head,
      nodes.map((node) => node.id),
    );
    const { batches: _batches, data, ...fields } = zCommitSaveRequest.parse({ ...raw, data: head });
    const { nodes: _none, ...parts } = partsOf(data, ids.workflowId);
    const saved = await saveWorkflow(this.db, ownerId, ids.workflowId, {
      ...fields,
      thumbnailUrl: rowThumbnail({ ...fields, data }),
      parts: { ...parts, nodes },
      author: { authorId: ids.userId },
    });
    this.owned.forget(ids);
    await this.staging.drop(ids);
    return saved;
  }

  /**
   * Drops a save in progress. Staged batches live under the user's own prefix, so they go
   * even when the workflow was deleted meanwhile; `mayEdit` answers for the workflow after.
   */
  async cancel(ids: SaveIds, mayEdit: () => Promise<unknown>) {
    this.owned.forget(ids);
    await this.staging.drop(ids, { anywhere: true });
    await mayEdit();
  }
}
