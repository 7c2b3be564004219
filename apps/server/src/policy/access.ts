/**
 * Who may do what to which resource: the one place routes ask before they run a command.
 * Today every rule is "the owner" (a public workflow may also be read: the workflow
 * reads check that themselves); shared links and roles land here next. Another user's resource
 * is answered like a missing one (404, never 403: no existence leak), with the same
 * messages as the owner-scoped reads. Rules raise domain errors; they never speak HTTP.
 */
import { API_TOKEN_ERRORS, WORKFLOW_ERRORS } from "@atelier/core";
import { readAdminFlag } from "../auth/auth.ts";
import { findJobByCallbackToken, getOwnJob } from "../commands/generation.ts";
import { getOwnMediaRow, type MediaRow } from "../commands/media-files.ts";
import { getOwnRun } from "../commands/runs/run-rows.ts";
import {
  assertOwnWorkflows,
  getOwnWorkflowRow,
} from "../commands/workflow-storage/workflow-rows.ts";
import type { AppDb } from "../db/client.ts";
import type { JobRow, RunRow, WorkflowRecord } from "../db/rows.ts";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.ts";
import { ANONYMOUS_FOLDER, TEMPORARY_WORKFLOW_ID } from "../storage/media-manifest.ts";

/** The signed-in party a rule is asked about. */
export interface Actor {
  id: string;
}

/** The workflow, when the user may change it (its owner); else 404. */
export function assertCanEditWorkflow(
  db: AppDb,
  user: Actor,
  workflowId: string,
): Promise<WorkflowRecord> {
  return getOwnWorkflowRow(db, user.id, workflowId);
}

/** 404 unless the user may change every one of the workflows (all or nothing). */
export function assertCanEditWorkflows(db: AppDb, user: Actor, workflowIds: readonly string[]) {
  return assertOwnWorkflows(db, user.id, workflowIds);
}

/**
 * The storage folder an upload to `workflowId` goes under: the user's own workflow (else
 * 404) or the unsaved one; signed out, only the unsaved one, in the anonymous folder (401
 * for any other, SPEC §6).
 */
export async function assertCanUploadTo(
  db: AppDb,
  user: Actor | null,
  workflowId: string,
): Promise<string> {
  if (!user) {
    if (workflowId !== TEMPORARY_WORKFLOW_ID)
      throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
    return ANONYMOUS_FOLDER;
  }
  if (workflowId !== TEMPORARY_WORKFLOW_ID) await assertCanEditWorkflow(db, user, workflowId);
  return user.id;
}

/** True when a signed-out upload is already known to be refused (before its bytes are read). */
export function uploadRefusedEarly(user: Actor | null, workflowId: string | undefined): boolean {
  return !user && workflowId !== undefined && workflowId !== TEMPORARY_WORKFLOW_ID;
}

/** The job, when the user may read it (its owner); else 404 "Job not found". */
export function canReadJob(db: AppDb, user: Actor, jobId: string): Promise<JobRow> {
  return getOwnJob(db, user.id, jobId);
}

/** The job, when the user may cancel it (its owner); else 404 "Job not found". */
export const canCancelJob = canReadJob;

/** The run, when the user may read or control it (its owner); else 404 "Run not found". */
export function canControlRun(db: AppDb, user: Actor, runId: string): Promise<RunRow> {
  return getOwnRun(db, user.id, runId);
}

/** The workflow, when the user may run it and see its runs (its owner); else 404. */
export const assertCanRunWorkflow = assertCanEditWorkflow;

/** The manifest row, when the user may delete that file (its uploader); else 404. */
export function assertCanDeleteMedia(db: AppDb, user: Actor, id: string): Promise<MediaRow> {
  return getOwnMediaRow(db, user.id, id);
}

/** The job a provider callback's unguessable token addresses, or null (the route's 404). */
export function jobForCallback(db: AppDb, provider: string, token: string) {
  return findJobByCallbackToken(db, provider, token);
}

/** Whether the user is an admin, read on every call so a demotion takes effect at once. */
export function isAdmin(db: AppDb, user: Actor): Promise<boolean> {
  return readAdminFlag(db, user.id);
}

/**
 * API tokens are managed from a signed-in browser only: a request authenticated by a token
 * may not create, list or revoke tokens (403), so a leaked token cannot mint more.
 */
export function assertCanManageApiTokens(user: Actor & { viaToken?: true }): void {
  if (user.viaToken) throw new ForbiddenError(API_TOKEN_ERRORS.bearerCannotManage);
}
