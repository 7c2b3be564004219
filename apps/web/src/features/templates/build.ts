import { getNodeDefinition, validateConnection } from "@atelier/core";
import { createEdge, createNode } from "../document/factory.ts";
import type { CanvasEdge, CanvasNode, DocumentGraph } from "../document/types.ts";

/** Grid of a template's layout: a card is 320 wide, a generator with its result ~500 tall. */
const COLUMN = 420;
const ROW = 300;

export interface NodeOptions {
  /** The node's title on the canvas (its type's name when left out). */
  label?: string;
  /** Parameter values over the type's defaults, checked against its catalogue entry. */
  values?: Record<string, unknown>;
}

/**
 * Builds a template's graph the way a user would: catalogue nodes with their defaults, and
 * wires that core's connection rules accept, one at a time in the order given. A template
 * that a user could not draw throws here (and in its unit test), never on a canvas.
 */
export function templateGraph(draw: (add: TemplateDraw) => void): DocumentGraph {
  const nodes: CanvasNode[] = [];
  const edges: CanvasEdge[] = [];
  const node: TemplateDraw["node"] = (type, [column, row], options = {}) => {
    const definition = getNodeDefinition(type);
    if (!definition) throw new Error(`Template node of unknown type ${type}`);
    const created = createNode(type, { x: column * COLUMN, y: row * ROW });
    const values = definition.params.parse({
      ...definitionDefaults(created),
      ...options.values,
    }) as Record<string, unknown>;
    created.data.inputValues = Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, { value }]),
    );
    if (options.label) created.data.label = options.label;
    nodes.push(created);
    return created.id;
  };
  const wire: TemplateDraw["wire"] = (source, sourceHandle, target, targetHandle) => {
    const connection = { source, sourceHandle, target, targetHandle };
    const verdict = validateConnection(
      { nodes: nodes.map(({ id, type, data }) => ({ id, type: type ?? "", data })), edges },
      connection,
    );
    if (!verdict.ok)
      throw new Error(
        `Template wire ${source}.${sourceHandle} → ${target}.${targetHandle} refused: ${verdict.message ?? "no content to give"}`,
      );
    const from = nodes.find((candidate) => candidate.id === source);
    const port = getNodeDefinition(from?.type ?? "")?.outputs.find(
      (output) => output.id === sourceHandle,
    );
    edges.push(createEdge(connection, port?.type ?? "any"));
  };
  draw({ node, wire });
  return { nodes, edges };
}

const definitionDefaults = (node: CanvasNode) =>
  Object.fromEntries(
    Object.entries(node.data.inputValues ?? {}).map(([name, slot]) => [name, slot.value]),
  );

export interface TemplateDraw {
  /** Adds a node at a grid cell (fractions allowed) and answers its id. */
  node(type: string, at: [column: number, row: number], options?: NodeOptions): string;
  /** Wires an output to an input, as core's `validateConnection` allows. */
  wire(source: string, sourceHandle: string, target: string, targetHandle: string): void;
}
