import { getNodeDefinition, validateConnection } from "@atelier/core";
import type { DocumentGraph } from "../document/types.ts";

/*
 * Port hints: while a wire is dragged, each drawn node's ports that would take it are marked
 * `data-hint="accepts"`, the others "refuses" (styles.css), by core's `validateConnection` —
 * the rule a drop is judged by, not a second copy of it. Worked out once when the drag starts,
 * on the nodes drawn then, by marking their port rows: no node re-renders for it. Loaded with
 * the first dragged wire (Canvas.tsx), off the editor's first load.
 */

/** The wire's start: its node, handle, and whether it comes from an output ("source"). */
export interface WireStart {
  node: string;
  handle: string | null;
  side: "source" | "target";
}

export function showPortHints(root: HTMLElement, document: DocumentGraph, wire: WireStart) {
  clearPortHints(root);
  const graph = {
    nodes: document.nodes.map((node) => ({ id: node.id, type: node.type ?? "", data: node.data })),
    edges: document.edges,
  };
  const types = new Map(document.nodes.map((node) => [node.id, node.type ?? ""]));
  // From an output, drawn nodes' inputs may take it; from an input, their outputs may feed it.
  const side = wire.side === "source" ? "in" : "out";
  for (const element of root.querySelectorAll<HTMLElement>(".react-flow__node[data-id]")) {
    const id = element.dataset.id as string;
    const definition = getNodeDefinition(types.get(id) ?? "");
    const ports = (side === "in" ? definition?.inputs : definition?.outputs) ?? [];
    for (const port of ports) {
      const row = element.querySelector<HTMLElement>(
        `.port[data-side="${side}"][data-port="${CSS.escape(port.id)}"]`,
      );
      if (!row) continue;
      const connection =
        wire.side === "source"
          ? { source: wire.node, sourceHandle: wire.handle, target: id, targetHandle: port.id }
          : { source: id, sourceHandle: port.id, target: wire.node, targetHandle: wire.handle };
      row.dataset.hint = validateConnection(graph, connection).ok ? "accepts" : "refuses";
    }
  }
}

export function clearPortHints(root: HTMLElement) {
  for (const row of root.querySelectorAll<HTMLElement>("[data-hint]")) delete row.dataset.hint;
}
