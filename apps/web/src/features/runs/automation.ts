import {
  AUTOMATION_MAX_ITEMS,
  AUTOMATION_MESSAGES,
  automationItemId,
  automationItems,
  gatherInputs,
  getNodeDefinition,
  LIMITS,
  listOutputMedia,
  parseAutomationItemId,
  RUN_MESSAGES,
} from "@atelier/core";
import type { api, JobStatus } from "../../services/api.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNode, CanvasNodeData } from "../document/types.ts";
import type { HistoryEntry } from "./ResultHistory.tsx";

/** One run of one item through one generator, kept in the automation node's data. */
export interface AutomationRun {
  item: string;
  /** The generator node the item runs through, and the input port it fills. */
  target: string;
  port: string;
  requestId: string | null;
  status: "queued" | "running" | "complete" | "error" | "cancelled";
  /** The run's main result: a media URL or a text. */
  result: string | null;
  error: string | null;
}

export interface AutomationData {
  runs: AutomationRun[];
}

interface AutomationDeps {
  documents: DocumentStore;
  api: Pick<typeof api, "generate">;
  workflowId: () => string | null;
  newKey: () => string;
  write: (nodeId: string, patch: Partial<CanvasNodeData>) => void;
  /** Starts following an item's job (runs store + job stream). */
  follow: (job: Omit<JobStatus, "workflowId">) => void;
  isRunnable: (type: string | undefined) => boolean;
  messageOf: (error: unknown) => string;
}

const TERMINAL = new Set<AutomationRun["status"]>(["complete", "error", "cancelled"]);

/** What a finished job produced, as the one value an item's result holds. */
function resultOf(job: JobStatus): string | null {
  const media = listOutputMedia(job.outputs)[0]?.url;
  if (media) return media;
  for (const slot of Object.values(job.outputValues ?? {}))
    if (typeof slot.value === "string" && slot.value) return slot.value;
  return null;
}

const runsOf = (node: CanvasNode | undefined): AutomationRun[] =>
  (node?.data.automation as AutomationData | undefined)?.runs ?? [];

/**
 * Image automation (issue "Special nodes"): runs each generator wired to the automation's
 * Results once per item, as separate jobs whose node id names the automation and the
 * item. Each item's state lives in the automation node; each result also lands in the
 * generator's result history; when all have ended the node holds the combined list.
 */
export function createAutomation(deps: AutomationDeps) {
  const { documents, write } = deps;
  const nodeOf = (id: string) => documents.getState().nodes.find((node) => node.id === id);

  const setRun = (automationId: string, index: number, patch: Partial<AutomationRun>) => {
    const runs = runsOf(nodeOf(automationId)).map((run, at) =>
      at === index ? { ...run, ...patch } : run,
    );
    write(automationId, { automation: { runs } satisfies AutomationData });
    return runs;
  };

  const fail = (automationId: string, message: string) =>
    write(automationId, { status: "error", error: message });

  /** The automation's end: the combined list of results, and what failed. */
  const finish = (automationId: string, runs: AutomationRun[]) => {
    const results = runs.flatMap((run) =>
      run.status === "complete" && run.result ? [run.result] : [],
    );
    const failed = runs.filter((run) => run.status === "error");
    const cancelled = results.length === 0 && failed.length === 0;
    write(automationId, {
      status: cancelled ? "idle" : results.length > 0 ? "complete" : "error",
      outputs: { items: results },
      outputValues: { items: { value: results } },
      error:
        failed.length > 0
          ? `${failed.length} of ${runs.length} items failed: ${failed[0]?.error ?? RUN_MESSAGES.failed}`
          : null,
      runNote: cancelled ? "Cancelled" : `${results.length} of ${runs.length} items done`,
    });
    for (const target of new Set(runs.map((run) => run.target))) {
      const mine = runs.filter((run) => run.target === target);
      const any = mine.some((run) => run.status === "complete");
      const error = mine.find((run) => run.status === "error")?.error ?? null;
      write(target, {
        status: any ? "complete" : error ? "error" : "idle",
        error: any ? null : error,
      });
    }
  };

  return {
    /** Starts one job per item and wired generator; problems show on the automation node. */
    async start(automationId: string) {
      const node = nodeOf(automationId);
      if (!node || node.data.status === "processing") return;
      const { nodes, edges } = documents.getState();
      const gathered = gatherInputs(nodes, edges, automationId);
      if (gathered.missing.length > 0)
        return fail(automationId, `Missing required input: ${gathered.missing[0]}`);
      const media = gathered.inputs.media ?? [];
      const items = automationItems(
        Array.isArray(media) ? media : [media],
        gathered.params.splitBy,
      );
      if (items.length === 0) return fail(automationId, AUTOMATION_MESSAGES.noItems);
      if (items.length > AUTOMATION_MAX_ITEMS)
        return fail(automationId, AUTOMATION_MESSAGES.tooMany);
      const wires = edges.filter(
        (edge) => edge.source === automationId && deps.isRunnable(nodeOf(edge.target)?.type),
      );
      if (wires.length === 0) return fail(automationId, AUTOMATION_MESSAGES.noTargets);

      const runs: AutomationRun[] = wires.flatMap((edge) =>
        items.map((item) => ({
          item,
          target: edge.target,
          port:
            edge.targetHandle ??
            getNodeDefinition(nodeOf(edge.target)?.type ?? "")?.inputs[0]?.id ??
            "",
          requestId: null,
          status: "queued" as const,
          result: null,
          error: null,
        })),
      );
      write(automationId, {
        status: "processing",
        error: null,
        runNote: null,
        automation: { runs } satisfies AutomationData,
      });
      for (const target of new Set(runs.map((run) => run.target)))
        write(target, { status: "processing", error: null });

      const ownPrompt =
        typeof gathered.inputs.prompt === "string"
          ? gathered.inputs.prompt
          : gathered.params.prompt;
      for (const [index, run] of runs.entries()) {
        const target = nodeOf(run.target);
        const definition = getNodeDefinition(target?.type ?? "");
        if (!target?.type || !definition) continue;
        const own = gatherInputs(
          documents.getState().nodes,
          documents.getState().edges,
          run.target,
        );
        const port = definition.inputs.find((candidate) => candidate.id === run.port);
        const inputs = { ...own.inputs, [run.port]: port?.multiple ? [run.item] : run.item };
        // The automation's own prompt goes to generators that have none of theirs.
        if (
          typeof ownPrompt === "string" &&
          ownPrompt.trim() &&
          !inputs.prompt &&
          !own.params.prompt
        )
          inputs.prompt = ownPrompt;
        const missing = definition.inputs.find(
          (candidate) =>
            candidate.required &&
            !inputs[candidate.id] &&
            !(candidate.id === "prompt" && own.params.prompt),
        );
        if (missing) {
          setRun(automationId, index, {
            status: "error",
            error: `Missing required input: ${missing.label}`,
          });
          continue;
        }
        try {
          const started = await deps.api.generate(target.type, {
            nodeId: automationItemId(automationId, index),
            workflowId: deps.workflowId(),
            inputs,
            params: own.params,
            idempotencyKey: deps.newKey(),
          });
          setRun(automationId, index, { requestId: started.requestId, status: "running" });
          deps.follow({
            ...started,
            nodeId: automationItemId(automationId, index),
            model: target.type,
          });
        } catch (error) {
          setRun(automationId, index, { status: "error", error: deps.messageOf(error) });
        }
      }
      const after = runsOf(nodeOf(automationId));
      if (after.every((run) => TERMINAL.has(run.status))) finish(automationId, after);
    },

    /** True when the job belongs to an automation item (and was applied to it). */
    applyEnd(job: JobStatus): boolean {
      const item = parseAutomationItemId(job.nodeId);
      if (!item) return false;
      const run = runsOf(nodeOf(item.automationId))[item.index];
      // Another request's news, or an end already applied (a resume replays ends).
      if (!run || run.requestId !== job.requestId || TERMINAL.has(run.status)) return true;
      const status =
        job.status === "COMPLETED" ? "complete" : job.status === "FAILED" ? "error" : "cancelled";
      const result = status === "complete" ? resultOf(job) : null;
      const runs = setRun(item.automationId, item.index, {
        status,
        result,
        error: status === "error" ? job.error || RUN_MESSAGES.failed : null,
      });
      const target = nodeOf(run.target);
      if (target && status === "complete") {
        // Each item's result joins the generator's history (SPEC §9 keeps 20).
        const entry: HistoryEntry = {
          requestId: job.requestId,
          at: Date.now(),
          outputs: job.outputs ?? {},
          outputValues: job.outputValues ?? {},
        };
        write(run.target, {
          history: [...((target.data.history as HistoryEntry[] | undefined) ?? []), entry].slice(
            -LIMITS.text.historyEntries,
          ),
          outputs: job.outputs ?? {},
          outputValues: job.outputValues ?? {},
        });
      }
      if (runs.every((candidate) => TERMINAL.has(candidate.status)))
        finish(item.automationId, runs);
      return true;
    },

    /** Request ids of the automation's items still queued or running. */
    activeRequests(automationId: string): string[] {
      return runsOf(nodeOf(automationId)).flatMap((run) =>
        run.requestId && !TERMINAL.has(run.status) ? [run.requestId] : [],
      );
    },
  };
}

export type Automation = ReturnType<typeof createAutomation>;
