import {
  type LoadedWorkflow,
  loadWorkflowData,
  loadWorkflowDataInSteps,
  parseWorkflowFile,
  type SavedWorkflow,
} from "@atelier/core";
import { nextTask } from "../../services/next-task.ts";
import type { CanvasEdge, CanvasNode, DocumentGraph } from "../document/types.ts";

/*
 * Reading saved data into the editor's graph. Loaded on the first open or import: core's
 * load path checks with zod, which the editor's first paint does not need (DESIGN §7).
 */

const asGraph = ({ document, recovered }: LoadedWorkflow) => ({
  graph: {
    nodes: document.nodes as unknown as CanvasNode[],
    edges: document.edges as unknown as CanvasEdge[],
  },
  recovered,
});

/** `readGraph` in short steps, for large workflows: the canvas stays responsive meanwhile. */
export async function readGraphInSteps(data: SavedWorkflow) {
  return asGraph(await loadWorkflowDataInSteps(data, nextTask, 250));
}

/** The editor's graph of saved data, recovered by core when parts are broken. */
export function readGraph(data: SavedWorkflow): { graph: DocumentGraph; recovered: boolean } {
  const { document, recovered } = loadWorkflowData(data);
  return {
    graph: {
      nodes: document.nodes as unknown as CanvasNode[],
      edges: document.edges as unknown as CanvasEdge[],
    },
    recovered,
  };
}

/** A workflow file's graph and name, or a thrown error with SPEC's message. */
export function readImport(text: string) {
  const loaded = loadWorkflowData(parseWorkflowFile(text));
  return {
    graph: {
      nodes: loaded.document.nodes as unknown as CanvasNode[],
      edges: loaded.document.edges as unknown as CanvasEdge[],
    },
    name: loaded.document.metadata.name,
    recovered: loaded.recovered,
  };
}
