import {
  PLAIN_MEDIA_OUTPUT_KEY,
  type SavedWorkflow,
  type WorkflowRow,
  type WorkflowSummary,
} from "@atelier/core";
import type { JobRow, WorkflowRecord } from "../db/rows.ts";

/** A workflow row as the API shows it (SPEC §3 column names), without its data. */
export function presentWorkflowSummary(row: WorkflowRecord): WorkflowSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    thumbnail_url: row.thumbnailUrl,
    is_public: row.isPublic,
    user_id: row.userId,
    folder_id: row.folderId,
    media_refs: row.mediaRefs,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    fork_count: row.forkCount,
    forked_from: row.forkedFrom,
    is_template: row.isTemplate,
    is_chunked: row.isChunked,
    chunk_count: row.chunkCount,
    data_size_bytes: row.dataSizeBytes,
  };
}

/** A readable workflow; a public one read by someone else does not show the owner's folder. */
export function presentWorkflow(
  row: WorkflowRecord,
  data: SavedWorkflow | null,
  viewerId: string,
): WorkflowRow {
  const summary = presentWorkflowSummary(row);
  return { ...summary, folder_id: row.userId === viewerId ? summary.folder_id : null, data };
}

const DATA_TAIL = '"data":null}}';
const CLOSE = Buffer.from("}}");

/**
 * The answer `{ workflow: presentWorkflow(row, data, viewerId) }` as UTF-8 JSON, given the
 * data's JSON: megabytes of workflow are spliced in, not parsed and stringified again.
 */
export function presentWorkflowJson(row: WorkflowRecord, data: Buffer, viewerId: string): Buffer {
  const shell = presentWorkflowShell(row, viewerId);
  if (!shell.endsWith(DATA_TAIL)) throw new Error("presentWorkflow must end with its data");
  const head = Buffer.from(`${shell.slice(0, -DATA_TAIL.length)}"data":`);
  return Buffer.concat([head, data, CLOSE]);
}

/** The answer of presentWorkflowJson without its data (`"data":null`). */
export const presentWorkflowShell = (row: WorkflowRecord, viewerId: string): string =>
  JSON.stringify({ workflow: presentWorkflow(row, null, viewerId) });

/**
 * A name for the exact bytes presentWorkflowJson gives: the data's version (every save moves
 * `updated_at`; results and chunk heads change with it) and everything else the answer says.
 */
export const workflowAnswerKey = (row: WorkflowRecord, viewerId: string): string =>
  [
    row.updatedAt.getTime(),
    row.chunkHead,
    row.resultsVersion,
    presentWorkflowShell(row, viewerId),
  ].join("\n");

/** SPEC §7's queue status answer for a job row. */
export function presentJobStatus(job: JobRow) {
  const outputs = job.outputs ?? undefined;
  const video = outputs?.[PLAIN_MEDIA_OUTPUT_KEY.video];
  const videoUrl = typeof video === "string" ? video : null;
  return {
    requestId: job.id,
    nodeId: job.nodeId,
    workflowId: job.workflowId,
    model: job.model,
    endpoint: job.endpoint,
    status: job.status,
    queue_position: job.queuePosition,
    logs: job.logs,
    progress: job.progress,
    ...(videoUrl ? { data: { video: { url: videoUrl } } } : {}),
    ...(outputs ? { outputs } : {}),
    ...(job.outputValues ? { outputValues: job.outputValues } : {}),
    error: job.error,
  };
}
