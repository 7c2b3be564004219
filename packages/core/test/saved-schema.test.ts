import { describe, expect, it } from "vitest";
import { zSaveBatchRequest, zSavedNode, zSavedWorkflow } from "../src/index.ts";

/** A workflow with only what SPEC §5 requires of it: version, nodes and edges. */
const minimal = () => ({
  version: "1.0.0",
  nodes: [
    { id: "a", type: "text", position: { x: 0, y: 0 }, data: {} },
    { id: "b", type: "flux-pro", position: { x: 300, y: 0 }, data: {} },
  ],
  edges: [{ id: "e", source: "a", target: "b" }],
});

describe("saved workflow schema: fields SPEC §3 only describes", () => {
  it("accepts a workflow whose nodes omit selected and dragging, and saves them as false", () => {
    const parsed = zSavedWorkflow.parse({ ...minimal(), timestamp: 1, metadata: { name: "W" } });
    for (const node of parsed.nodes)
      expect(node).toMatchObject({ selected: false, dragging: false });
    const batch = zSaveBatchRequest.parse({ nodes: minimal().nodes });
    expect(batch.nodes.map((node) => [node.selected, node.dragging])).toEqual([
      [false, false],
      [false, false],
    ]);
  });

  it("still refuses a node saved as selected or dragging", () => {
    const node = minimal().nodes[0];
    expect(zSavedNode.safeParse({ ...node, selected: true }).success).toBe(false);
    expect(zSavedNode.safeParse({ ...node, dragging: true }).success).toBe(false);
  });

  it("accepts a workflow without timestamp or metadata, filling the save time and the untitled name", () => {
    const before = Date.now();
    const parsed = zSavedWorkflow.parse(minimal());
    expect(parsed.timestamp).toBeGreaterThanOrEqual(before);
    expect(parsed.metadata).toEqual({ name: "Untitled workflow" });
    expect(zSavedWorkflow.parse({ ...minimal(), metadata: {} }).metadata.name).toBe(
      "Untitled workflow",
    );
  });

  it("accepts a port without a type as `any`, and a value slot without its value as null", () => {
    const node = {
      ...minimal().nodes[0],
      data: { ports: [{ id: "text" }], inputValues: { prompt: {} } },
    };
    const parsed = zSavedNode.parse(node);
    expect(parsed.data.ports).toEqual([{ id: "text", type: "any" }]);
    expect(parsed.data.inputValues).toEqual({ prompt: { value: null } });
  });

  it("still refuses what SPEC §5 requires: node id, type, position and data; edge id and ends", () => {
    const { nodes, edges } = minimal();
    const [node] = nodes;
    for (const field of ["id", "type", "position", "data"]) {
      const { [field]: _left, ...rest } = node as Record<string, unknown>;
      expect(zSavedNode.safeParse(rest).success, field).toBe(false);
    }
    for (const field of ["id", "source", "target"]) {
      const { [field]: _left, ...rest } = edges[0] as Record<string, unknown>;
      const workflow = { ...minimal(), edges: [rest] };
      expect(zSavedWorkflow.safeParse(workflow).success, field).toBe(false);
    }
    const { version: _version, ...unversioned } = minimal();
    expect(zSavedWorkflow.safeParse(unversioned).success).toBe(false);
  });
});
