import {
  estimateGraphNode,
  estimateGraphRun,
  type GraphEdge,
  getNodeDefinition,
  indexGraph,
  type NodeEstimate,
  type RunProviders,
  runSignatureOf,
  signatureReads,
  type TotalEstimate,
  totalOf,
  upstreamOf,
} from "@atelier/core";
import { costsApi } from "../../services/costs-api.ts";
import type { DocumentStore } from "../document/store.ts";
import { useWorkspace } from "../workspace/store.ts";
import { useEstimates } from "./estimates-store.ts";

/** Edits come in bursts (typing, dragging): estimates follow a moment after the last one. */
const SETTLE_MS = 150;

let pricing: Promise<RunProviders | null> | null = null;
let pricingFor: string | null | undefined;

/** Where this session's runs go (GET /api/pricing), asked again when the user changes. */
export function runProviders(): Promise<RunProviders | null> {
  const userId = useWorkspace.getState().user?.id ?? null;
  if (pricing && pricingFor === userId) return pricing;
  pricingFor = userId;
  pricing = costsApi.pricing().then(
    (answer) => ({
      configured: new Set(answer.providers),
      doneLocally: new Set(answer.doneLocally),
      order: answer.order ?? [],
      down: new Set(answer.down ?? []),
      lacking: answer.lacking ?? {},
    }),
    // Offline: no estimates until the next try.
    () => {
      pricing = null;
      return null;
    },
  );
  return pricing;
}

const runsOnProvider = (type: string | undefined) =>
  type ? getNodeDefinition(type)?.run.kind === "provider" : false;

/** The scope Run to here (or Run all, with no target) would run. */
function scopeOf(documents: DocumentStore, target: string | null): string[] {
  const { nodes, edges } = documents.getState();
  return target ? [...upstreamOf(target, edges), target] : nodes.map((node) => node.id);
}

/** What a run of the open workflow (all, or up to `target`) is expected to cost. */
export async function estimateRun(
  documents: DocumentStore,
  target: string | null,
): Promise<TotalEstimate | null> {
  const providers = await runProviders();
  if (!providers) return null;
  return estimateGraphRun(documents.getState(), scopeOf(documents, target), providers);
}

/** Stores followed, and how many node estimates read each (the last one stops it). */
const following = new WeakMap<DocumentStore, { readers: number; stop: () => void }>();

/**
 * Keeps `useEstimates` current for a document: each provider node's estimate (recomputed
 * only for nodes whose data or wiring changed) and Run all's total. Once per store, for as
 * long as a reader holds it; returns the release.
 */
export function followEstimates(documents: DocumentStore): () => void {
  const followed = following.get(documents) ?? { readers: 0, stop: startFollowing(documents) };
  followed.readers++;
  following.set(documents, followed);
  return () => {
    followed.readers--;
    if (followed.readers > 0) return;
    followed.stop();
    following.delete(documents);
  };
}

/** A pass over a large graph works in slices of about this long, so no task holds the page
 * (a fresh open of thousands of nodes estimates every one: one long task, L2). */
const SLICE_MS = 8;
const NO_EDGES: readonly GraphEdge[] = [];

const sameReads = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, at) => value === b[at]);

const sameFields = (a: NodeEstimate, b: NodeEstimate) => {
  const keys = Object.keys(a) as (keyof NodeEstimate)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

const saving = () => useWorkspace.getState().save.state === "saving";

const nextSlice = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function startFollowing(documents: DocumentStore): () => void {
  const cache = new Map<
    string,
    { data: unknown; into: readonly GraphEdge[]; wired: string; estimate: NodeEstimate | null }
  >();
  const signatures = new Map<string, { reads: unknown[]; keepsResult: boolean }>();
  let scheduled = false;
  let providers: RunProviders | null = null;

  // What the last pass saw: a pass over a drag (positions only) has nothing to do.
  let lastEdges: unknown = null;
  let lastData = new Map<string, unknown>();
  let fresh = true;
  // A pass that a newer one replaced stops at its next slice.
  let passes = 0;

  const recompute = async () => {
    scheduled = false;
    if (!providers) return;
    // Mid-drag, nothing that costs money changes: wait for the drop. A save under way goes
    // first: a pass beside it delayed "Saved" on a large workflow (bench S3).
    if (documents.getState().isDragging() || saving()) return schedule();
    const { nodes, edges } = documents.getState();
    let moved = fresh || edges !== lastEdges || nodes.length !== lastData.size;
    for (const node of nodes) if (lastData.get(node.id) !== node.data) moved = true;
    if (!moved) return;
    fresh = false;
    lastEdges = edges;
    lastData = new Map(nodes.map((node) => [node.id, node.data]));
    const pass = ++passes;
    const using = providers;
    let sliceStart = performance.now();
    /** Yields between slices; false when a newer pass took over meanwhile. */
    const goOn = async () => {
      if (performance.now() - sliceStart < SLICE_MS) return true;
      await nextSlice();
      sliceStart = performance.now();
      if (pass !== passes) return false;
      if (!saving()) return true;
      // A save began: the pass starts over after it (what it did is kept per node).
      fresh = true;
      schedule();
      return false;
    };
    const index = indexGraph(nodes, edges);
    const byNode: Record<string, NodeEstimate> = {};
    for (const node of nodes) {
      if (!runsOnProvider(node.type)) continue;
      const wiredEdges = index.into.get(node.id) ?? NO_EDGES;
      let entry = cache.get(node.id);
      // The ports wired, as text, only when the wires into the node are not the same ones.
      const wired =
        entry && sameReads(entry.into, wiredEdges)
          ? entry.wired
          : wiredEdges
              .map((edge) => `${edge.targetHandle ?? ""}`)
              .sort()
              .join(",");
      if (!entry || entry.data !== node.data || entry.wired !== wired) {
        if (!(await goOn())) return;
        const estimate = estimateGraphNode(node, wiredEdges, using);
        // An edit that leaves the price as it was (most prompt edits) keeps the same object:
        // no reader re-renders.
        const same = entry?.estimate && estimate && sameFields(entry.estimate, estimate);
        entry = {
          data: node.data,
          into: wiredEdges,
          wired,
          estimate: same ? (entry?.estimate ?? null) : estimate,
        };
        cache.set(node.id, entry);
      }
      if (entry.estimate) byNode[node.id] = entry.estimate;
    }
    // Run all's total from the estimates just kept (no node is estimated twice). A node
    // that completed with its current inputs keeps its result in a run and counts nothing;
    // whether it does is asked again only when what its signature reads changed.
    const counted: (NodeEstimate | null)[] = [];
    const reads: unknown[] = [];
    for (const node of nodes) {
      const estimate = byNode[node.id];
      if (!estimate) continue;
      reads.length = 0;
      signatureReads(node.id, index, 0, reads);
      let kept = signatures.get(node.id);
      if (!kept || !sameReads(kept.reads, reads)) {
        if (!(await goOn())) return;
        const keepsResult =
          node.data.status === "complete" &&
          node.data.runSignature === runSignatureOf(nodes, edges, node.id, index);
        kept = { reads: [...reads], keepsResult };
        signatures.set(node.id, kept);
      }
      counted.push(kept.keepsResult ? null : estimate);
    }
    const total = totalOf(counted);
    // Nodes deleted since: what was kept for them goes (it holds their data).
    if (cache.size > nodes.length || signatures.size > nodes.length)
      for (const kept of [cache, signatures])
        for (const id of kept.keys()) if (!lastData.has(id)) kept.delete(id);
    const before = useEstimates.getState().byNode;
    const keys = Object.keys(byNode);
    const changed =
      keys.length !== Object.keys(before).length || keys.some((id) => before[id] !== byNode[id]);
    const old = useEstimates.getState().total;
    const totalChanged = !old || old.usd !== total.usd || old.unknown !== total.unknown;
    if (changed || totalChanged)
      useEstimates.setState({
        ...(changed ? { byNode } : {}),
        ...(totalChanged ? { total } : {}),
      });
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    timer = setTimeout(() => void recompute(), SETTLE_MS);
  };
  let askedAt = 0;
  const refreshPricing = () => {
    askedAt = Date.now();
    void runProviders().then((answer) => {
      providers = answer;
      useEstimates.setState({ configured: [...(answer?.configured ?? [])] });
      cache.clear();
      fresh = true;
      schedule();
    });
  };

  let seen = documents.getState();
  const stopDocument = documents.subscribe((state) => {
    if (state.nodes === seen.nodes && state.edges === seen.edges) return;
    seen = state;
    // Offline when pricing was asked: ask again with an edit (every 10 s at most).
    if (providers) schedule();
    else if (Date.now() - askedAt > 10_000) refreshPricing();
  });
  let user = useWorkspace.getState().user;
  const stopUser = useWorkspace.subscribe((state) => {
    if (state.user === user) return;
    user = state.user;
    refreshPricing();
  });
  refreshPricing();
  return () => {
    // Released: no pass is started again, and one under way stops at its next slice.
    stopped = true;
    clearTimeout(timer);
    passes++;
    stopDocument();
    stopUser();
  };
}
