import type { Provenance } from "@atelier/core";
import { eq } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { JobRow } from "../../db/rows.ts";
import { runs } from "../../db/schema.ts";

/** What of a job its provenance is made from. */
export type ProvenanceJob = Pick<
  JobRow,
  "model" | "provider" | "endpoint" | "input" | "runId" | "workflowId" | "costUsd"
>;

const isDataUrl = (value: unknown) => typeof value === "string" && value.startsWith("data:");

const firstText = (value: unknown): string | null => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" && first.trim() ? first : null;
};

function seedOf(params: Record<string, unknown>, inputs: Record<string, unknown>) {
  if (typeof params.seed === "number" && Number.isFinite(params.seed)) return params.seed;
  // A seed wired in from another node arrives as text.
  const wired = Number(firstText(inputs.seed) ?? Number.NaN);
  return Number.isFinite(wired) ? wired : null;
}

/**
 * A job's provenance: the node type and provider that ran, its parameters (prompt and seed
 * have fields of their own; inline media is left out), where it ran from, and what it cost
 * at its endpoint's published price (null: none published).
 */
export function provenanceOf(
  job: ProvenanceJob,
  version: string | null,
  createdAt: Date,
): Provenance {
  const params = (job.input.params ?? {}) as Record<string, unknown>;
  const inputs = (job.input.inputs ?? {}) as Record<string, unknown>;
  const parameters = Object.fromEntries(
    Object.entries(params).filter(
      ([name, value]) =>
        name !== "prompt" &&
        name !== "seed" &&
        !isDataUrl(value) &&
        !(Array.isArray(value) && value.some(isDataUrl)),
    ),
  );
  return {
    model: job.model,
    provider: job.provider,
    endpoint: job.endpoint || null,
    parameters,
    seed: seedOf(params, inputs),
    prompt: firstText(params.prompt) ?? firstText(inputs.prompt),
    runId: job.runId ?? null,
    workflowId: job.workflowId ?? null,
    version,
    createdAt: createdAt.toISOString(),
    cost: job.costUsd ?? null,
  };
}

/** The provenance of a job's results, with the workflow version its run was based on. */
export async function loadProvenance(db: AppDb, job: ProvenanceJob): Promise<Provenance> {
  let version: string | null = null;
  if (job.runId) {
    const [run] = await db
      .select({ basedOn: runs.basedOn })
      .from(runs)
      .where(eq(runs.id, job.runId));
    version = run?.basedOn ?? null;
  }
  return provenanceOf(job, version, new Date());
}
