import { randomBytes, randomUUID } from "node:crypto";
import {
  ANONYMOUS_RUN_MESSAGES,
  type AnonymousRuns,
  COST_MESSAGES,
  getNodeDefinition,
  type NodeDefinition,
  orderFor,
  priceOf,
  resolveRunTarget,
  TERMINAL_QUEUE_STATUSES,
  validateMediaInput,
} from "@atelier/core";
import { and, eq } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { jobs, user } from "../db/schema.ts";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../domain/errors.ts";
import type { SpendBudgets } from "../env-limits.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import { TEMPORARY_WORKFLOW_ID } from "../storage/media-manifest.ts";
import { assertAffordable, budgetApplies, withinBudgets } from "./quotas/spend-budget.ts";
import { getOwnWorkflowRow } from "./workflow-storage/workflow-rows.ts";

/** Route names of SPEC §7 that are variants of one catalogue node. */
const MODEL_ALIASES: Record<string, string> = {
  wan: "wan-video",
  kling: "kling-video",
  "wan-animate-replace": "wan-animate",
  "wan-animate-move": "wan-animate",
  "veo31-text-to-video": "veo31-video",
  "veo31-image-to-video": "veo31-video",
  "veo31-first-last-frame": "veo31-video",
  "veo31-reference-images": "veo31-video",
};

const MEDIA_TYPES = new Set(["image", "video", "audio", "object"]);

/** The catalogue entry a `/api/generate/:model` name stands for, or 404. */
export function definitionOf(model: string): NodeDefinition {
  const definition = getNodeDefinition(MODEL_ALIASES[model] ?? model);
  if (!definition) throw new NotFoundError(`Unknown model: ${model}`);
  return definition;
}

export interface GenerateInput {
  nodeId: string;
  workflowId?: string | null | undefined;
  inputs: Record<string, unknown>;
  params: Record<string, unknown>;
  idempotencyKey?: string | undefined;
  /** The server-side run this job is a step of. */
  runId?: string | undefined;
}

/**
 * Checks a run against the node's catalogue entry: parameters by its schema, required inputs
 * present, media inputs valid URLs (SPEC §5 messages), and returns the inputs as the
 * provider will see them (our storage paths made absolute).
 */
export function checkRun(definition: NodeDefinition, body: GenerateInput, publicUrl: string) {
  if (definition.run.kind === "none")
    throw new InvalidInputError(`${definition.displayName} has nothing to run`);
  const parsed = definition.params.safeParse(body.params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(`Invalid parameter ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const params = parsed.data as Record<string, unknown>;
  const inputs: Record<string, string | string[]> = {};
  for (const port of definition.inputs) {
    const given = body.inputs[port.id];
    const values = (Array.isArray(given) ? given : [given]).filter(
      (value) => value !== undefined && value !== null && value !== "",
    );
    const ownPrompt =
      port.id === "prompt" && typeof params.prompt === "string" && params.prompt.trim();
    if (values.length === 0) {
      if (port.required && !ownPrompt)
        throw new InvalidInputError(`Missing required input: ${port.label}`);
      continue;
    }
    if (!port.multiple && values.length > 1)
      throw new InvalidInputError(`${port.label} takes one connection`);
    if (port.max !== undefined && values.length > port.max)
      throw new InvalidInputError(`${port.label} takes at most ${port.max}`);
    const strings = values.map((value) => {
      if (MEDIA_TYPES.has(port.type) || (port.type === "any" && typeof value === "string")) {
        const local = typeof value === "string" && value.startsWith("/api/media/file/");
        const problem = local ? null : validateMediaInput(value);
        if (problem && MEDIA_TYPES.has(port.type)) throw new InvalidInputError(problem);
        return local ? `${publicUrl}${value}` : String(value);
      }
      if (typeof value === "object") throw new InvalidInputError(`${port.label} must be text`);
      return String(value);
    });
    inputs[port.id] = port.multiple ? strings : (strings[0] as string);
  }
  return { params, inputs };
}

/** The providers the user's jobs may use: an anonymous session's per ANONYMOUS_RUNS. */
export async function providersFor(
  db: AppDb,
  providers: ProviderRegistry,
  userId: string,
  anonymousRuns: AnonymousRuns,
): Promise<ReadonlySet<string>> {
  if (anonymousRuns === "all") return providers.configured;
  const [row] = await db
    .select({ isAnonymous: user.isAnonymous })
    .from(user)
    .where(eq(user.id, userId));
  if (!row?.isAnonymous) return providers.configured;
  if (anonymousRuns === "none") throw new ForbiddenError(ANONYMOUS_RUN_MESSAGES.none);
  // The operator's paid keys are for accounts: anonymous sessions run offline.
  return LOCAL_ONLY;
}
const LOCAL_ONLY: ReadonlySet<string> = new Set(["local"]);

/** Writes the job row (before any provider call) and answers what the client polls with. */
export async function createJob(
  db: AppDb,
  providers: ProviderRegistry,
  userId: string,
  model: string,
  body: GenerateInput,
  publicUrl: string,
  storeInline: (dataUrl: string, port: string) => Promise<string>,
  anonymousRuns: AnonymousRuns = "local",
  budgets: SpendBudgets | null = null,
  /** An anonymous session's address (its spend is budgeted by address too). */
  clientAddress: string | null = null,
): Promise<{ job: JobRow; created: boolean }> {
  const definition = definitionOf(model);
  const { params, inputs } = checkRun(definition, body, publicUrl);
  // Results are stored under the workflow: it must be the user's own (or the unsaved one).
  if (body.workflowId && body.workflowId !== TEMPORARY_WORKFLOW_ID)
    await getOwnWorkflowRow(db, userId, body.workflowId);
  if (body.idempotencyKey) {
    const [existing] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.userId, userId), eq(jobs.idempotencyKey, body.idempotencyKey)));
    if (existing) return { job: existing, created: false };
  }
  const target = resolveRunTarget(
    definition,
    new Set(Object.keys(inputs)),
    params,
    await providersFor(db, providers, userId, anonymousRuns),
    providers.doneLocally,
    orderFor(body.params, providers.order),
  );
  const providerId = target.kind === "provider" ? target.provider : "local";
  const endpoint = target.kind === "none" ? "" : target.endpoint;
  const provider = providers.get(providerId);
  if (!provider) throw new InvalidInputError(`No provider can run ${definition.displayName}`);
  // Its published price (null: none); over a budget, refused before anything is stored.
  const costUsd = priceOf(endpoint, params);
  if (budgets) {
    if (
      costUsd === null &&
      budgets.refuseUnpriced &&
      (await budgetApplies(db, budgets, userId, clientAddress))
    )
      throw new ForbiddenError(COST_MESSAGES.unpriced(definition.displayName));
    await assertAffordable(db, budgets, userId, costUsd ?? 0, clientAddress);
  }
  // Embedded media goes to storage (once a provider can run it): providers are given URLs,
  // never inline data.
  for (const [port, value] of Object.entries(inputs)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.some((item) => item.startsWith("data:"))) continue;
    const stored = await Promise.all(
      values.map((item) => (item.startsWith("data:") ? storeInline(item, port) : item)),
    );
    inputs[port] = Array.isArray(value) ? stored : (stored[0] as string);
  }
  const request = provider.buildInput({ nodeType: definition.type, endpoint, inputs, params });
  const insert = (tx: AppDb) =>
    tx
      .insert(jobs)
      .values({
        id: randomUUID(),
        userId,
        workflowId: body.workflowId ?? null,
        nodeId: body.nodeId,
        model: definition.type,
        provider: providerId,
        endpoint,
        status: "IN_QUEUE",
        step: "queued",
        input: { inputs, params, request },
        idempotencyKey: body.idempotencyKey ?? null,
        runId: body.runId ?? null,
        callbackToken: randomBytes(24).toString("hex"),
        runner: randomUUID(),
        costUsd,
        clientAddress,
      })
      .returning();
  const [job] = budgets
    ? await withinBudgets(db, budgets, userId, costUsd ?? 0, clientAddress, insert)
    : await insert(db);
  return { job: job as JobRow, created: true };
}

/** One of the user's jobs; another user's is 404. */
export async function getOwnJob(db: AppDb, userId: string, jobId: string): Promise<JobRow> {
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)));
  if (!job) throw new NotFoundError("Job not found");
  return job;
}

/** The job a provider callback's unguessable token addresses, or null. */
export async function findJobByCallbackToken(db: AppDb, provider: string, token: string) {
  const [job] = await db
    .select({ id: jobs.id, providerRequestId: jobs.providerRequestId })
    .from(jobs)
    .where(and(eq(jobs.callbackToken, token), eq(jobs.provider, provider)));
  return job ?? null;
}

export const isTerminal = (status: string) =>
  (TERMINAL_QUEUE_STATUSES as readonly string[]).includes(status);
