import { getNodeDefinition, runSignatureOf, topologicalOrder, upstreamOf } from "@atelier/core";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNode } from "../document/types.ts";

/** What a node's last successful run was made from: its model, inputs and parameters. */
export function runSignature(documents: DocumentStore, nodeId: string): string {
  const { nodes, edges } = documents.getState();
  return runSignatureOf(nodes, edges, nodeId);
}

export const UNCHANGED_NOTE = "Unchanged since its last run: kept its result";

export type GraphRun =
  | { ok: true; ran: string[]; skipped: string[]; failed: string[] }
  | { ok: false; cycle: string[] };

/** Resolves when the node is no longer processing, with whether it ended complete. */
function settled(documents: DocumentStore, nodeId: string): Promise<boolean> {
  const statusOf = () => documents.getState().nodes.find((node) => node.id === nodeId)?.data.status;
  return new Promise((resolve) => {
    const check = () => {
      const status = statusOf();
      if (status === "processing") return false;
      stop();
      resolve(status === "complete");
      return true;
    };
    const stop = documents.subscribe(() => void check());
    check();
  });
}

/**
 * Runs the graph (or what feeds `target`, and `target`) in dependency order: each node
 * starts as soon as the runnable nodes upstream of it have completed. A node whose model,
 * inputs and parameters are unchanged since its last successful run keeps its result.
 * A cycle is reported instead of running anything.
 */
export async function runGraph(
  documents: DocumentStore,
  run: (nodeId: string) => Promise<void>,
  mark: (nodeId: string, note: string | null) => void,
  target: string | null,
): Promise<GraphRun> {
  const { nodes, edges } = documents.getState();
  const scope = target ? [...upstreamOf(target, edges), target] : nodes.map((node) => node.id);
  const order = topologicalOrder(scope, edges);
  if (!order.ok) return { ok: false, cycle: order.cycle };
  const byId = new Map<string, CanvasNode>(nodes.map((node) => [node.id, node]));
  // Generators wired to an image automation run once per item, started by the automation.
  const driven = new Set(
    edges
      .filter((edge) => byId.get(edge.source)?.type === "image-automation")
      .map((edge) => edge.target),
  );
  // A utility node with nothing wired in holds a dropped file: a source, not a step.
  const holders = new Set(
    nodes
      .filter((node) => node.type === "utility" && !edges.some((edge) => edge.target === node.id))
      .map((node) => node.id),
  );
  const runnable = (id: string) => {
    const type = byId.get(id)?.type;
    const definition = type ? getNodeDefinition(type) : undefined;
    return Boolean(
      definition && definition.run.kind !== "none" && !driven.has(id) && !holders.has(id),
    );
  };
  const result = {
    ok: true as const,
    ran: [] as string[],
    skipped: [] as string[],
    failed: [] as string[],
  };
  const started = new Map<string, Promise<boolean>>();

  const start = (id: string): Promise<boolean> => {
    const existing = started.get(id);
    if (existing) return existing;
    const promise = (async () => {
      const feeders = [...upstreamOf(id, edges)].filter(
        (other) => scope.includes(other) && runnable(other),
      );
      const ready = await Promise.all(feeders.map(start));
      if (ready.some((ok) => !ok)) return false;
      const node = documents.getState().nodes.find((candidate) => candidate.id === id);
      if (!node) return false;
      if (
        node.data.status === "complete" &&
        node.data.runSignature === runSignature(documents, id)
      ) {
        mark(id, UNCHANGED_NOTE);
        result.skipped.push(id);
        return true;
      }
      mark(id, null);
      await run(id);
      const ok = await settled(documents, id);
      (ok ? result.ran : result.failed).push(id);
      return ok;
    })();
    started.set(id, promise);
    return promise;
  };
  await Promise.all(order.order.filter(runnable).map(start));
  return result;
}
