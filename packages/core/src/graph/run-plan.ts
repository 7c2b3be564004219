import { getNodeDefinition } from "../catalogue/registry.ts";
import { findCycle, topologicalOrder, upstreamOf } from "./order.ts";
import { gatherInputs } from "./run-inputs.ts";
import type { RunNode } from "./run-node.ts";
import type { GraphEdge } from "./types.ts";

/** What a run runs: every node, a node and what feeds it ("Run to here"), or a list. */
export type RunTargetSpec = { all: true } | { upTo: string } | { nodes: string[] };

/** Parameter values that replace a node's own for one run: `{ nodeId: { param: value } }`. */
export type RunInputOverrides = Record<string, Record<string, unknown>>;

/** The refusals of a run request (400s; nothing is started). */
export const RUN_PLAN_MESSAGES = {
  unknownNode: (id: string) => `Unknown node: ${id}`,
  unknownModel: (type: string) => `Unknown model: ${type}`,
  unknownParam: (node: string, name: string) => `Unknown parameter ${name} of ${node}`,
  invalidParam: (node: string, name: string, message: string) =>
    `Invalid parameter ${name} of ${node}: ${message}`,
  cycle: (names: readonly string[]) => `Cannot run: the graph has a cycle (${names.join(" → ")})`,
  missingInput: (label: string, node: string) => `Missing required input: ${label} of ${node}`,
  nothingToRun: "Nothing to run: no node in the target runs a model",
} as const;

/** One node the run starts: its feeders are the run's steps whose outputs it waits for. */
export interface RunStep {
  id: string;
  type: string;
  feeders: string[];
}

export interface RunPlan {
  /** In dependency order. */
  steps: RunStep[];
  /** The nodes the run reads (steps and their sources), overrides applied. */
  nodes: RunNode[];
  /** The wires between those nodes. */
  edges: GraphEdge[];
}

export type RunPlanResult = { ok: true; plan: RunPlan } | { ok: false; message: string };

const nameOf = (node: RunNode | undefined, id: string) =>
  node?.data.label ? `"${node.data.label}"` : (node?.type ?? id);

/** Nodes that run a model or an operation, and are not started by something else. */
function runnableIds(nodes: readonly RunNode[], edges: readonly GraphEdge[]): Set<string> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  // Generators wired to an image automation run once per item, started by the automation
  // in the editor; the automation itself runs there too.
  const driven = new Set(
    edges
      .filter((edge) => byId.get(edge.source)?.type === "image-automation")
      .map((edge) => edge.target),
  );
  const fed = new Set(edges.map((edge) => edge.target));
  const ids = new Set<string>();
  for (const node of nodes) {
    const definition = node.type ? getNodeDefinition(node.type) : undefined;
    if (!definition || definition.run.kind === "none") continue;
    if (node.type === "image-automation" || driven.has(node.id)) continue;
    // A utility node with nothing wired in holds a dropped file: a source, not a step.
    if (node.type === "utility" && !fed.has(node.id)) continue;
    ids.add(node.id);
  }
  return ids;
}

/** The node with the run's overrides in its parameters, checked against its catalogue entry. */
function withOverrides(
  node: RunNode,
  overrides: Record<string, unknown> | undefined,
): { node: RunNode } | { message: string } {
  if (!overrides) return { node };
  const definition = node.type ? getNodeDefinition(node.type) : undefined;
  if (!definition) return { message: RUN_PLAN_MESSAGES.unknownModel(String(node.type)) };
  const inputValues = { ...node.data.inputValues };
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in definition.params.shape))
      return { message: RUN_PLAN_MESSAGES.unknownParam(nameOf(node, node.id), name) };
    inputValues[name] = { ...inputValues[name], value };
  }
  return { node: { ...node, data: { ...node.data, inputValues } } };
}

/** The node's parameters as a run sends them. */
const paramsOf = (node: RunNode) =>
  Object.fromEntries(
    Object.entries(node.data.inputValues ?? {}).map(([name, slot]) => [name, slot?.value]),
  );

/**
 * Checks a run request against its graph and plans it (pure): the target's nodes exist,
 * every node type is known, overrides name real parameters with values of the right type,
 * there is no cycle, and every required input is wired or has a value. The plan lists the
 * steps in dependency order with the steps each waits for.
 */
export function planRun(
  graph: { nodes: readonly RunNode[]; edges: readonly GraphEdge[] },
  target: RunTargetSpec = { all: true },
  overrides: RunInputOverrides = {},
): RunPlanResult {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const refuse = (message: string): RunPlanResult => ({ ok: false, message });
  for (const id of Object.keys(overrides))
    if (!byId.has(id)) return refuse(RUN_PLAN_MESSAGES.unknownNode(id));
  const named = "upTo" in target ? [target.upTo] : "nodes" in target ? target.nodes : [];
  for (const id of named) if (!byId.has(id)) return refuse(RUN_PLAN_MESSAGES.unknownNode(id));

  const edges = graph.edges.filter((edge) => byId.has(edge.source) && byId.has(edge.target));
  const runnable = runnableIds(graph.nodes, edges);
  const wanted =
    "upTo" in target
      ? [...upstreamOf(target.upTo, edges), target.upTo]
      : "nodes" in target
        ? target.nodes
        : graph.nodes.map((node) => node.id);
  for (const id of wanted) {
    const type = byId.get(id)?.type;
    if (type && !getNodeDefinition(type)) return refuse(RUN_PLAN_MESSAGES.unknownModel(type));
  }
  const stepIds = new Set(wanted.filter((id) => runnable.has(id)));
  // The run reads its steps and everything upstream of them (their sources' values).
  const scope = new Set(stepIds);
  for (const id of stepIds) for (const other of upstreamOf(id, edges)) scope.add(other);

  const nodes: RunNode[] = [];
  for (const id of scope) {
    const node = byId.get(id) as RunNode;
    if (node.type && !getNodeDefinition(node.type))
      return refuse(RUN_PLAN_MESSAGES.unknownModel(node.type));
    const applied = withOverrides(node, overrides[id]);
    if ("message" in applied) return refuse(applied.message);
    nodes.push(applied.node);
  }
  const scopeEdges = edges.filter((edge) => scope.has(edge.source) && scope.has(edge.target));
  const order = topologicalOrder([...scope], scopeEdges);
  if (!order.ok) {
    const cycle = findCycle([...scope], scopeEdges) ?? order.cycle;
    return refuse(RUN_PLAN_MESSAGES.cycle(cycle.map((id) => nameOf(byId.get(id), id))));
  }
  if (stepIds.size === 0) return refuse(RUN_PLAN_MESSAGES.nothingToRun);

  const scoped = new Map(nodes.map((node) => [node.id, node]));
  const steps: RunStep[] = [];
  for (const id of order.order) {
    if (!stepIds.has(id)) continue;
    const node = scoped.get(id) as RunNode;
    const definition = getNodeDefinition(node.type as string);
    if (!definition) return refuse(RUN_PLAN_MESSAGES.unknownModel(String(node.type)));
    const checked = definition.params.safeParse(paramsOf(node));
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const name = String(issue?.path[0] ?? "");
      return refuse(RUN_PLAN_MESSAGES.invalidParam(nameOf(node, id), name, String(issue?.message)));
    }
    // A port wired to a step gets its value when that step completes.
    const firstPort = definition.inputs[0]?.id;
    const fedPorts = new Set(
      scopeEdges
        .filter((edge) => edge.target === id && stepIds.has(edge.source))
        .map((edge) => edge.targetHandle ?? firstPort),
    );
    const fedLabels = new Set(
      definition.inputs.filter((port) => fedPorts.has(port.id)).map((port) => port.label),
    );
    const missing = gatherInputs(nodes, scopeEdges, id).missing.find(
      (label) => !fedLabels.has(label),
    );
    if (missing) return refuse(RUN_PLAN_MESSAGES.missingInput(missing, nameOf(node, id)));
    const feeders = [...upstreamOf(id, scopeEdges)].filter((other) => stepIds.has(other));
    steps.push({ id, type: definition.type, feeders });
  }
  return { ok: true, plan: { steps, nodes, edges: scopeEdges } };
}
