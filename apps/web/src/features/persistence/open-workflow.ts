import { type SavedWorkflow, WORKFLOW_ERRORS } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { notify } from "../../ui/notify.ts";
import type { DocumentGraph } from "../document/types.ts";
import { usePreferences } from "../preferences/store.ts";
import { restored } from "../workspace/document-status.ts";
import { opened, useWorkspace } from "../workspace/store.ts";
import { conflictFound, loadingStep } from "../workspace/sync-status.ts";
import { LAST_WORKFLOW_KEY, local, locationOf } from "./document-io.ts";
import { CLEAN_EXIT_KEY, journaledWorkflow, readJournal } from "./journal.ts";
import { fetchWorkflow, LOAD_STEPS } from "./load-workflow.ts";

/*
 * Opening a workflow, a file or a backup: loaded with the first open (or when the browser is
 * idle, for offline use), not with the editor's first paint (DESIGN §7).
 */

/** What opening needs from the persistence it serves. */
export interface OpenTarget {
  /** Puts a graph on the canvas without marking it as an edit. */
  replaceDocument(graph: DocumentGraph): void;
  newWorkflow(): void;
  /** Opens a workflow through persistence (start-up recovery does). */
  open(id: string, options?: OpenOptions): Promise<OpenOutcome>;
  /** Documents put on the canvas so far (the document store's count). */
  loads(): number;
}

/** A document put on the canvas starts with no save outcome (an old "Not saved" is not its). */

/** The load path (and its zod checks). */
const reader = () => import("./read-graph.ts");
const backupStore = () => import("./backups.ts");

/**
 * How an open ended: the workflow is on the canvas, it is not there for this user (unknown,
 * deleted, another account's or on another device), or it could not be loaded.
 */
export type OpenOutcome = "opened" | "missing" | "failed";

export interface OpenOptions {
  /** Toast "not found" (the default); an open from the address shows a page instead. */
  reportMissing?: boolean;
  /**
   * A reload for a change saved elsewhere: edits made here while it was fetched are kept,
   * and the user chooses as for any conflict (they are never replaced silently).
   */
  reload?: boolean;
}

/** The server's answers for a workflow this user cannot have: one page says it for all. */
const MISSING_STATUSES = new Set([400, 401, 403, 404]);

/** Opens a workflow from the cloud or this browser. */
export async function openWorkflow(
  target: OpenTarget,
  id: string,
  { reportMissing = true, reload = false }: OpenOptions = {},
): Promise<OpenOutcome> {
  const step = (message: string | null) => loadingStep(message);
  try {
    const found = await fetchWorkflow(id, step);
    step(LOAD_STEPS.check);
    const { graph, recovered } =
      found.read ?? (await reader()).readGraph(found.data as SavedWorkflow);
    const now = useWorkspace.getState();
    if (reload && (now.workflowId !== id || now.dirty || now.save.state === "saving")) {
      if (now.workflowId === id && now.dirty && found.basedOn) conflictFound(found.basedOn);
      return "opened";
    }
    step(LOAD_STEPS.draw);
    target.replaceDocument(graph);
    opened({
      workflowId: id,
      location: found.location,
      basedOn: found.basedOn,
      name: found.name,
      dirty: false,
    });
    if (recovered) notify.info("Workflow was partially corrupted. Some data may be missing.");
    if (found.location === "cloud" && found.fromDevice)
      notify.info("The server is slow to answer: opened the copy kept on this device.");
    // Someone else's workflow opened through a link is not this browser's to reopen.
    if (!useWorkspace.getState().share) {
      localStorage.setItem(LAST_WORKFLOW_KEY, id);
      usePreferences.getState().rememberRecent({ id, name: found.name, accessedAt: Date.now() });
    }
    return "opened";
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    const missing =
      message === WORKFLOW_ERRORS.notInAnyStorage(id) ||
      (error instanceof ApiError && MISSING_STATUSES.has(error.status));
    if (missing) {
      if (reportMissing) notify.error(message);
      return "missing";
    }
    if (error instanceof ApiError) {
      notify.error(message);
    } else {
      console.error("Load failed", error);
      target.newWorkflow();
      notify.error("Workflow could not be loaded. Starting with an empty canvas.");
    }
    return "failed";
  } finally {
    step(null);
  }
}

/**
 * On start: the workflow the address names (`wanted`; not reported when missing: the caller
 * shows a page), else the last one opened; and the journal — brought back silently after a
 * normal close when it holds that workflow's edits (or, with no address, any), offered
 * otherwise. A document the user opened meanwhile (`loads` moved on) stays: the journal is
 * then only offered. Start-up only, so it arrives with this module, not the first paint.
 */
export async function recoverSession(
  target: OpenTarget,
  wanted: string | undefined,
  loads: number,
): Promise<OpenOutcome> {
  const entry = await readJournal();
  const cleanExit = localStorage.getItem(CLEAN_EXIT_KEY) === "1";
  localStorage.removeItem(CLEAN_EXIT_KEY);
  const readGraph = entry && (await reader()).readGraph;
  const untouched = target.loads() === loads;
  const id = wanted ?? localStorage.getItem(LAST_WORKFLOW_KEY);
  const openWanted = async (): Promise<OpenOutcome> =>
    id && untouched ? target.open(id, { reportMissing: wanted === undefined }) : "opened";
  if (!entry || !readGraph) return openWanted();
  const restore = () => {
    target.replaceDocument(readGraph(journaledWorkflow(entry)).graph);
    // Everything a save needs: the version the edits started from included.
    restored({
      workflowId: entry.workflowId,
      location: locationOf(entry.workflowId),
      basedOn: entry.basedOn ?? null,
      name: entry.name,
      dirty: true,
    });
  };
  if (untouched && cleanExit && (wanted === undefined || entry.workflowId === wanted)) {
    restore();
    return "opened";
  }
  const outcome = await openWanted();
  notify.action("Unsaved changes from your last session were found.", "Restore", restore);
  return outcome;
}

/** Puts a backup back on the canvas; it stays unsaved until the user saves. */
export async function restoreWorkflowBackup(target: OpenTarget, id: number): Promise<void> {
  try {
    const { readBackup } = await backupStore();
    const { backup, data } = await readBackup(await local(), id);
    target.replaceDocument((await reader()).readGraph(data).graph);
    // SPEC §4: clean after a restore (the backup itself stays in the list until pushed out).
    opened({
      workflowId: backup.workflowId,
      location: locationOf(backup.workflowId),
      basedOn: backup.basedOn ?? null,
      name: backup.name,
      dirty: false,
    });
    notify.info("Workflow restored from backup. Please save to persist changes.");
  } catch {
    notify.error("Failed to restore workflow from backup");
  }
}

/** Opens a .json workflow file: dirty, with no id until saved. */
export async function importWorkflowFile(target: OpenTarget, file: File): Promise<void> {
  try {
    const loaded = (await reader()).readImport(await file.text());
    if (loaded.recovered)
      notify.info("Workflow was partially corrupted. Some data may be missing.");
    target.replaceDocument(loaded.graph);
    const name = typeof loaded.name === "string" ? loaded.name : file.name.replace(/\.json$/i, "");
    opened({
      workflowId: null,
      location: null,
      basedOn: null,
      name,
      dirty: true,
    });
  } catch (error) {
    notify.error(error instanceof Error ? error.message : "Invalid workflow file format");
  }
}
