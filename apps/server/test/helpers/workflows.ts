import { type SavedWorkflow, serializeWorkflow } from "@atelier/core";

/** A saved workflow of `count` nodes; `payloadChars` of prompt text each, to make it big. */
export function makeWorkflow(name = "Test", count = 2, payloadChars = 10): SavedWorkflow {
  const nodes = Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    type: index === 0 ? "text" : "flux-pro",
    position: { x: index * 400, y: 0 },
    data: { label: `Node ${index}`, inputValues: { prompt: { value: "x".repeat(payloadChars) } } },
  }));
  const edges = nodes.slice(1).map((node, index) => ({
    id: `e${index}`,
    source: "n0",
    sourceHandle: "text",
    target: node.id,
    targetHandle: "prompt",
  }));
  return serializeWorkflow({ nodes, edges, metadata: { name } }, { now: Date.UTC(2026, 10, 1) });
}
