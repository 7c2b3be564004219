/**
 * Who may do what to which resource: the one place routes ask before they run a command.
 * The owner may do everything to their own; a public workflow may also be read; a share
 * link (its token in the request, `x-share-token`) opens exactly one workflow with its role:
 * view reads it, edit reads and saves it (signed in), run uses its published app. A link
 * never reaches the owner's other workflows, media or jobs. Another user's resource, and a
 * revoked or expired link, are answered like a missing one (404, never 403: no existence
 * leak). Rules raise domain errors; they never speak HTTP.
 */
import {
  API_TOKEN_ERRORS,
  APP_MESSAGES,
  SHARE_MESSAGES,
  type ShareRole,
  SIGNUP_MESSAGES,
  WORKFLOW_ERRORS,
} from "@atelier/core";
import { readAdminFlag } from "../auth/auth.ts";
import { signUpRefusal } from "../auth/signup-policy.ts";
import { findAppBySlug } from "../commands/apps/publish.ts";
import { findJobByCallbackToken, getOwnJob } from "../commands/generation.ts";
import { getOwnMediaRow, type MediaRow } from "../commands/media-files.ts";
import { getOwnRun } from "../commands/runs/run-rows.ts";
import { findActiveShare } from "../commands/shares.ts";
import {
  assertOwnWorkflows,
  getOwnWorkflowRow,
} from "../commands/workflow-storage/workflow-rows.ts";
import type { AppDb } from "../db/client.ts";
import type { AppRow, JobRow, RunRow, ShareLinkRow, WorkflowRecord } from "../db/rows.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "../domain/errors.ts";
import type { Config } from "../env.ts";
import { ANONYMOUS_FOLDER, TEMPORARY_WORKFLOW_ID } from "../storage/media-manifest.ts";

/** The signed-in party a rule is asked about. */
export interface Actor {
  id: string;
  /** An anonymous browser session (not an account). */
  isAnonymous?: boolean;
}

/**
 * The active link a token names, when it opens `workflowId` with one of `roles`; a revoked,
 * expired or other workflow's link, or another role, is 404 like a workflow never shared.
 */
async function linkTo(
  db: AppDb,
  token: string,
  workflowId: string,
  roles: readonly ShareRole[],
): Promise<{ link: ShareLinkRow; workflow: WorkflowRecord }> {
  const found = await findActiveShare(db, token);
  if (!found || found.workflow.id !== workflowId || !roles.includes(found.link.role))
    throw new NotFoundError(WORKFLOW_ERRORS.notFound);
  return found;
}

/** The active link a token names, whatever it opens; else 404 "Link not found…". */
export async function assertActiveShare(db: AppDb, token: string) {
  const found = await findActiveShare(db, token);
  if (!found) throw new NotFoundError(SHARE_MESSAGES.notFound);
  return found;
}

const signedIn = (user: Actor | null): user is Actor => Boolean(user && !user.isAnonymous);

/**
 * The workflow, when the user may change it: its owner, or a signed-in holder of an edit
 * link to it (its saves land in the owner's workflow); else 404.
 */
export async function assertCanEditWorkflow(
  db: AppDb,
  user: Actor | null,
  workflowId: string,
  shareToken?: string,
): Promise<WorkflowRecord> {
  if (shareToken !== undefined) {
    const { workflow } = await linkTo(db, shareToken, workflowId, ["edit"]);
    if (!signedIn(user)) throw new UnauthenticatedError(SHARE_MESSAGES.signInToEdit);
    return workflow;
  }
  if (!user) throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
  return getOwnWorkflowRow(db, user.id, workflowId);
}

/** The workflow whose changes the user may follow: own, or through a view or edit link. */
export async function assertCanFollowWorkflow(
  db: AppDb,
  user: Actor,
  workflowId: string,
  shareToken?: string,
): Promise<WorkflowRecord> {
  if (shareToken === undefined) return getOwnWorkflowRow(db, user.id, workflowId);
  return (await linkTo(db, shareToken, workflowId, ["view", "edit"])).workflow;
}

/**
 * Whose workflow the request reads, and as whom: a view link opens it to anyone, an edit
 * link to a signed-in person; without a link, a signed-in user reads their own or a public
 * one (the read checks that), a signed-out request is 401.
 */
export async function assertCanReadWorkflow(
  db: AppDb,
  user: Actor | null,
  workflowId: string,
  shareToken?: string,
): Promise<{ readAs: string; role: ShareRole | "owner" }> {
  if (shareToken !== undefined) {
    const { link, workflow } = await linkTo(db, shareToken, workflowId, ["view", "edit"]);
    if (link.role === "edit" && !signedIn(user))
      throw new UnauthenticatedError(SHARE_MESSAGES.signInToEdit);
    return { readAs: workflow.userId, role: link.role };
  }
  if (!signedIn(user)) throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
  return { readAs: user.id, role: "owner" };
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
  shareToken?: string,
): Promise<string> {
  if (!user) {
    if (workflowId !== TEMPORARY_WORKFLOW_ID)
      throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
    return ANONYMOUS_FOLDER;
  }
  if (workflowId === TEMPORARY_WORKFLOW_ID) return user.id;
  // An edit link's uploads go into the owner's workflow folder, like the owner's own.
  return (await assertCanEditWorkflow(db, user, workflowId, shareToken)).userId;
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
export function assertCanRunWorkflow(db: AppDb, user: Actor, workflowId: string) {
  return getOwnWorkflowRow(db, user.id, workflowId);
}

/** The workflow, when the user may manage its share links and app (its owner); else 404. */
export const assertCanShareWorkflow = assertCanRunWorkflow;

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
 * 403 with the reason when SIGNUP or ALLOWED_EMAIL_DOMAINS refuse an account for the address
 * (the invitation is looked at, not spent: the account's creation spends it).
 */
export async function assertMaySignUp(
  db: AppDb,
  config: Pick<Config, "signup" | "allowedEmailDomains">,
  email: string,
  inviteToken: string | null,
): Promise<void> {
  const refusal = await signUpRefusal(db, config, email, inviteToken, { spend: false });
  if (refusal) throw new ForbiddenError(refusal);
}

/** 403 "Only admins can do this" unless the user is an admin now. */
/**
 * Admin actions need an admin's signed-in session: never an API token, so a leaked token
 * cannot issue reset links, disable accounts or invite (403).
 */
export async function assertIsAdmin(db: AppDb, user: Actor & { viaToken?: true }): Promise<void> {
  if (user.viaToken) throw new ForbiddenError(SIGNUP_MESSAGES.adminsNeedSession);
  if (!(await readAdminFlag(db, user.id))) throw new ForbiddenError(SIGNUP_MESSAGES.adminsOnly);
}

/**
 * API tokens are managed from a signed-in browser only: a request authenticated by a token
 * may not create, list or revoke tokens (403), so a leaked token cannot mint more.
 */
export function assertCanManageApiTokens(user: Actor & { viaToken?: true }): void {
  if (user.viaToken) throw new ForbiddenError(API_TOKEN_ERRORS.bearerCannotManage);
}

/**
 * The app a slug names, when the request may open it: its owner always; anyone (signed out
 * too) when it is public; else only through an active run link to its workflow. A link
 * presented and not active is 404 even for a public app (a revoked link is 404 everywhere).
 */
export async function assertCanOpenApp(
  db: AppDb,
  user: Actor | null,
  slug: string,
  shareToken?: string,
): Promise<AppRow> {
  const app = await findAppBySlug(db, slug);
  const missing = () => new NotFoundError(APP_MESSAGES.notFound);
  if (!app) throw missing();
  if (shareToken !== undefined) {
    const found = await findActiveShare(db, shareToken);
    if (!found || found.workflow.id !== app.workflowId || found.link.role !== "run")
      throw missing();
    return app;
  }
  if (app.access === "public" || user?.id === app.userId) return app;
  throw missing();
}

/** The app, when the user may run it: may open it, and signed in (operator quotas come later). */
export async function assertCanRunApp(
  db: AppDb,
  user: Actor | null,
  slug: string,
  shareToken?: string,
): Promise<{ app: AppRow; runner: Actor }> {
  const app = await assertCanOpenApp(db, user, slug, shareToken);
  if (!signedIn(user)) throw new UnauthenticatedError(SHARE_MESSAGES.signInToRun);
  return { app, runner: user };
}
