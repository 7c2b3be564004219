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
  return asGraph(await loadWorkflowDataInSteps(data, nextTask, 150));
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

/** A two-node workflow, the shapes a real one has: ports, values, a result, a wire. */
const WARM_UP: SavedWorkflow = {
  version: "1.0.0",
  timestamp: 0,
  metadata: { name: "warm-up" },
  nodes: ["a", "b"].map((id) => ({
    id,
    type: "text",
    position: { x: 0, y: 0 },
    data: {
      label: id,
      ports: [{ id: "text", type: "text" }],
      inputValues: { text: { value: "" } },
      outputs: { text: "" },
    },
    selected: false,
    dragging: false,
  })),
  edges: [{ id: "e", source: "a", target: "b", sourceHandle: "text", targetHandle: "text" }],
};

/**
 * Reads a tiny workflow once, when the browser is idle: zod builds and compiles its checks
 * on first use, which made a cold first open's check steps its slowest. True when the
 * sample read clean (nothing recovered).
 */
export function warmUpReading(): boolean {
  try {
    return !readGraph(WARM_UP).recovered;
  } catch (error) {
    console.warn("Warming up the workflow checks failed", error);
    return false;
  }
}
