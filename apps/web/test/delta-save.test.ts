import type { SavedNode, SavedWorkflow } from "@atelier/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  baseFor,
  diffSnapshots,
  forgetSaved,
  rememberSaved,
  snapshotOf,
} from "../src/features/persistence/delta-save.ts";

const node = (id: string, prompt = "a lighthouse at dusk"): SavedNode => ({
  id,
  type: "flux-pro",
  position: { x: 0, y: 0 },
  data: { inputValues: { prompt: { value: prompt } } },
  selected: false,
  dragging: false,
});
const workflow = (nodes: SavedNode[], edges: SavedWorkflow["edges"] = []): SavedWorkflow => ({
  version: "1.0.0",
  timestamp: 1,
  nodes,
  edges,
  metadata: { name: "Diff" },
});
const nodes = (count: number) => Array.from({ length: count }, (_, index) => node(`n${index}`));
const bytesOf = (data: SavedWorkflow) => JSON.stringify(data).length;
const diff = (before: SavedWorkflow, after: SavedWorkflow) =>
  diffSnapshots(snapshotOf(before), snapshotOf(after), after, bytesOf(after));

describe("delta saves: what the editor sends", () => {
  afterEach(() => {
    forgetSaved();
    vi.restoreAllMocks();
  });

  it("sends nothing but the head when nothing changed", () => {
    const data = workflow(nodes(10));
    expect(diff(data, structuredClone(data))).toEqual({ nodes: [], removed: [] });
  });

  it("sends the one node whose prompt changed", () => {
    const before = workflow(nodes(10));
    const after = workflow(before.nodes.map((n) => (n.id === "n4" ? node("n4", "edited") : n)));
    expect(diff(before, after)).toEqual({ nodes: [node("n4", "edited")], removed: [] });
  });

  it("sends removed ids, nodes added at the end and the edges when they changed", () => {
    const before = workflow(nodes(10), [{ id: "e1", source: "n0", target: "n1" }]);
    const kept = before.nodes.filter((n) => n.id !== "n1");
    const after = workflow([...kept, node("new")], [{ id: "e2", source: "n0", target: "new" }]);
    expect(diff(before, after)).toEqual({
      nodes: [node("new")],
      removed: ["n1"],
      edges: after.edges,
    });
  });

  it("falls back to a full save for reordered nodes or nodes added in the middle", () => {
    const before = workflow(nodes(10));
    const reordered = workflow([...before.nodes].reverse());
    expect(diff(before, reordered)).toBeNull();
    const inserted = workflow([node("new"), ...before.nodes]);
    expect(diff(before, inserted)).toBeNull();
  });

  it("falls back to a full save when the delta is over half the document", () => {
    const before = workflow(nodes(4));
    const after = workflow(before.nodes.map((n, index) => (index < 3 ? node(n.id, "changed") : n)));
    expect(diff(before, after)).toBeNull();
  });

  it("falls back to a full save when node ids repeat", () => {
    const before = workflow(nodes(10));
    expect(diff(before, workflow([...before.nodes, node("n0")]))).toBeNull();
  });

  it("uses a remembered version only for the same workflow at the same version", () => {
    const snapshot = snapshotOf(workflow(nodes(2)));
    rememberSaved("w1", "2026-01-01T00:00:00.000Z", snapshot);
    expect(baseFor("w1", "2026-01-01T00:00:00.000Z")).toBe(snapshot);
    expect(baseFor("w1", "2026-01-02T00:00:00.000Z")).toBeNull();
    expect(baseFor("w2", "2026-01-01T00:00:00.000Z")).toBeNull();
  });
});

describe("delta saves: falling back", () => {
  afterEach(() => {
    forgetSaved();
    vi.unstubAllGlobals();
  });

  const row = { id: "w1", basedOn: "t1" };
  const answer = (status: number, body: object) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("patches only the changed node on top of the remembered version", async () => {
    const { writeCloudRow } = await import("../src/features/persistence/cloud-save.ts");
    const before = workflow(nodes(10));
    rememberSaved("w1", "t1", snapshotOf(before));
    const sent: { method: string; body: unknown }[] = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      sent.push({ method: String(init.method), body: JSON.parse(String(init.body)) });
      return answer(200, { workflow: { id: "w1", updated_at: "t2" }, chunksWritten: 1 });
    });
    const after = workflow(before.nodes.map((n) => (n.id === "n2" ? node("n2", "edited") : n)));
    const saved = await writeCloudRow(row, "Diff", after, bytesOf(after), () => {});
    expect(saved.updated_at).toBe("t2");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "PATCH", body: { basedOn: "t1", removed: [] } });
    const body = sent[0]?.body as { nodes: SavedNode[] } | undefined;
    expect(body?.nodes.map((n) => n.id)).toEqual(["n2"]);
    expect(baseFor("w1", "t2")).not.toBeNull();
  });

  it("passes a 409 on for the conflict dialog, and saves whole after any other refusal", async () => {
    const { writeCloudRow } = await import("../src/features/persistence/cloud-save.ts");
    const before = workflow(nodes(10));
    const after = workflow(before.nodes.map((n) => (n.id === "n2" ? node("n2", "edited") : n)));
    rememberSaved("w1", "t1", snapshotOf(before));
    vi.stubGlobal("fetch", async () => answer(409, { error: "conflict", updated_at: "t9" }));
    await expect(writeCloudRow(row, "Diff", after, bytesOf(after), () => {})).rejects.toMatchObject(
      { status: 409 },
    );

    vi.spyOn(console, "warn").mockImplementation(() => {});
    const methods: string[] = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      methods.push(String(init.method));
      return init.method === "PATCH"
        ? answer(400, { error: "broken" })
        : answer(200, { workflow: { id: "w1", updated_at: "t3" }, chunksWritten: 2 });
    });
    const saved = await writeCloudRow(row, "Diff", after, bytesOf(after), () => {});
    expect(methods).toEqual(["PATCH", "PUT"]);
    expect(saved.updated_at).toBe("t3");
  });
});
