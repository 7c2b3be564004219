import {
  type AppRunRequest,
  applyAppValues,
  appRunNodes,
  planRun,
  RUN_ENGINE_MESSAGES,
  RUN_LIMITS,
  type RunPlan,
  type SavedEdge,
  type SavedNode,
} from "@atelier/core";
import { and, desc, eq } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { AppRow, RunRow } from "../../db/rows.ts";
import { runs } from "../../db/schema.ts";
import { InvalidInputError, NotFoundError } from "../../domain/errors.ts";
import { createRun } from "../runs/create-run.ts";
import { type RunRead, withNodes } from "../runs/run-reads.ts";

/** How many runs an app's history shows. */
export const APP_HISTORY_LIMIT = 50;

/** The run an app's form asks for: its published graph with the values, up to its outputs. */
function appRunOf(app: AppRow, request: AppRunRequest, isOwnMedia: (url: string) => boolean) {
  const graph = app.graph as { nodes: SavedNode[]; edges: SavedEdge[] };
  const applied = applyAppValues(graph, app.fields, request.values, isOwnMedia);
  if (!applied.ok) throw new InvalidInputError(applied.message);
  const wanted = appRunNodes(graph.edges, app.outputs);
  const target =
    wanted.length <= RUN_LIMITS.targetNodes ? { nodes: wanted } : ({ all: true } as const);
  return { graph: { nodes: applied.nodes, edges: graph.edges }, target };
}

/**
 * Runs the app's published version with the form's values, as the runner's run (their queue,
 * their results; the owner's stored workflow is not touched).
 */
export async function startAppRun(
  db: AppDb,
  runnerId: string,
  app: AppRow,
  request: AppRunRequest,
  isOwnMedia: (url: string) => boolean,
  beforeWrite?: (plan: RunPlan) => Promise<void>,
): Promise<RunRow> {
  return createRun(
    db,
    runnerId,
    appRunOf(app, request, isOwnMedia),
    null,
    { id: app.id, version: app.version },
    beforeWrite,
  );
}

/** The plan a run of the app with these values would follow (nothing is written). */
export function planAppRun(
  app: AppRow,
  request: AppRunRequest,
  isOwnMedia: (url: string) => boolean,
): RunPlan {
  const { graph, target } = appRunOf(app, request, isOwnMedia);
  const planned = planRun(graph, target);
  if (!planned.ok) throw new InvalidInputError(planned.message);
  return planned.plan;
}

/** The app's runs, newest first: every run for its owner, one's own for anyone else. */
export async function listAppRuns(db: AppDb, app: AppRow, viewerId: string): Promise<RunRead[]> {
  const mine = viewerId === app.userId ? undefined : eq(runs.userId, viewerId);
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.appId, app.id), mine))
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(APP_HISTORY_LIMIT);
  return withNodes(db, rows);
}

/** One run of the app, for its runner or the app's owner; else 404 "Run not found". */
export async function readAppRun(
  db: AppDb,
  app: AppRow,
  viewerId: string,
  runId: string,
): Promise<RunRead> {
  const [run] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.id, runId), eq(runs.appId, app.id)));
  if (!run || (run.userId !== viewerId && app.userId !== viewerId))
    throw new NotFoundError(RUN_ENGINE_MESSAGES.notFound);
  return (await withNodes(db, [run]))[0] as RunRead;
}
