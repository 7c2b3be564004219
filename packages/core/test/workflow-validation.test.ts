import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertValidWorkflow,
  parseWorkflowFile,
  recoverWorkflow,
  validateWorkflow,
} from "../src/index.ts";

const valid = () => ({
  version: "1.0.0",
  nodes: [
    { id: "a", type: "text", position: { x: 0, y: 0 }, data: {} },
    { id: "b", type: "flux-pro", position: { x: 300, y: 0 }, data: {} },
  ],
  edges: [{ id: "e", source: "a", target: "b", sourceHandle: "text", targetHandle: "prompt" }],
});

describe("validateWorkflow", () => {
  it("accepts a well-formed workflow", () => {
    expect(validateWorkflow(valid())).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it.each([
    ["no version", { ...valid(), version: undefined }, "Missing version"],
    ["nodes not an array", { ...valid(), nodes: {} }, "nodes must be an array"],
    ["edges not an array", { ...valid(), edges: "x" }, "edges must be an array"],
    [
      "node without id",
      { ...valid(), nodes: [{ type: "text", position: { x: 0, y: 0 }, data: {} }], edges: [] },
      "Node at index 0 is missing an id",
    ],
    [
      "node without type",
      { ...valid(), nodes: [{ id: "a", position: { x: 0, y: 0 }, data: {} }], edges: [] },
      "Node a is missing a type",
    ],
    [
      "node with text position",
      {
        ...valid(),
        nodes: [{ id: "a", type: "text", position: { x: "0", y: 0 }, data: {} }],
        edges: [],
      },
      "Node a has an invalid position",
    ],
    [
      "node without position",
      { ...valid(), nodes: [{ id: "a", type: "text", data: {} }], edges: [] },
      "Node a has an invalid position",
    ],
    [
      "node without data",
      { ...valid(), nodes: [{ id: "a", type: "text", position: { x: 0, y: 0 } }], edges: [] },
      "Node a is missing data",
    ],
    [
      "edge without id",
      { ...valid(), edges: [{ source: "a", target: "b" }] },
      "Edge at index 0 is missing an id",
    ],
    [
      "edge without target",
      { ...valid(), edges: [{ id: "e", source: "a" }] },
      "Edge e is missing a source or target",
    ],
    [
      "edge to a missing node",
      { ...valid(), edges: [{ id: "e", source: "a", target: "zz" }] },
      "Edge e references missing node zz",
    ],
  ])("reports %s", (_name, data, error) => {
    const result = validateWorkflow(data);
    expect(result.valid).toBe(false);
    expect(result.errors).toContain(error);
  });

  it("only warns on a different major version", () => {
    const result = validateWorkflow({ ...valid(), version: "2.3.0" });
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([
      "Workflow version 2.3.0 differs from the supported version 1.0.0",
    ]);
    expect(validateWorkflow({ ...valid(), version: "1.4.2" }).warnings).toEqual([]);
  });

  it("rejects non-objects", () => {
    expect(validateWorkflow(null).valid).toBe(false);
    expect(validateWorkflow([]).valid).toBe(false);
  });

  it("assertValidWorkflow throws 'Invalid workflow data: ...'", () => {
    expect(() => assertValidWorkflow(valid())).not.toThrow();
    expect(() => assertValidWorkflow({ ...valid(), version: "" })).toThrow(
      "Invalid workflow data: Missing version",
    );
    expect(() => assertValidWorkflow({ nodes: 1 })).toThrow(/^Invalid workflow data: /);
  });
});

describe("recoverWorkflow", () => {
  it("drops nodes without id and edges without id, source, target or with a missing end", () => {
    const recovered = recoverWorkflow({
      version: "1.0.0",
      nodes: [
        { id: "a", type: "text", position: { x: 1, y: 2 }, data: { label: "A" } },
        { type: "text", position: { x: 0, y: 0 }, data: {} },
        { id: "b", type: "flux-pro", position: { x: 5, y: 5 }, data: {} },
      ],
      edges: [
        { id: "ok", source: "a", target: "b" },
        { source: "a", target: "b" },
        { id: "no-source", target: "b" },
        { id: "no-target", source: "a" },
        { id: "dangling", source: "a", target: "gone" },
      ],
    });
    expect(recovered.nodes.map((node) => node.id)).toEqual(["a", "b"]);
    expect(recovered.edges.map((edge) => edge.id)).toEqual(["ok"]);
    expect(recovered.nodes[0]).toEqual({
      id: "a",
      type: "text",
      position: { x: 1, y: 2 },
      data: { label: "A" },
    });
  });

  it("always yields a workflow that validates, whatever it is given", () => {
    const anyValue = fc.anything();
    const nodeLike = fc.record(
      {
        id: fc.oneof(fc.string(), anyValue),
        type: fc.oneof(fc.constantFrom("text", "flux-pro"), anyValue),
        position: fc.oneof(fc.record({ x: fc.double(), y: fc.double() }), anyValue),
        data: anyValue,
      },
      { requiredKeys: [] },
    );
    const edgeLike = fc.record(
      {
        id: fc.oneof(fc.string(), anyValue),
        source: fc.oneof(fc.constantFrom("a", "b", ""), fc.string()),
        target: fc.oneof(fc.constantFrom("a", "b"), fc.string()),
      },
      { requiredKeys: [] },
    );
    const workflowLike = fc.oneof(
      anyValue,
      fc.record(
        {
          version: fc.oneof(fc.constant("1.0.0"), anyValue),
          nodes: fc.oneof(fc.array(nodeLike), anyValue),
          edges: fc.oneof(fc.array(edgeLike), anyValue),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(workflowLike, (data) => {
        const result = validateWorkflow(recoverWorkflow(data));
        expect(result.errors).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("recovery and parsing details", () => {
  it("keeps a node that has an id but no type, as a default node", () => {
    const recovered = recoverWorkflow({ version: "1.0.0", nodes: [{ id: "a" }], edges: [] });
    expect(recovered.nodes).toEqual([
      { id: "a", type: "default", position: { x: 0, y: 0 }, data: {} },
    ]);
  });

  it("assertValidWorkflow hands back valid data", () => {
    const data = valid();
    expect(assertValidWorkflow(data)).toBe(data);
  });

  it("parseWorkflowFile also takes already-parsed JSON", () => {
    expect(parseWorkflowFile(valid())).toEqual(valid());
    expect(() => parseWorkflowFile({ nodes: [] })).toThrow("Invalid workflow file format");
  });
});

describe("parseWorkflowFile", () => {
  it("returns the parsed workflow", () => {
    expect(parseWorkflowFile(JSON.stringify(valid()))).toEqual(valid());
  });

  it.each([
    ["not JSON", "{nope"],
    ["no version", JSON.stringify({ nodes: [], edges: [] })],
    ["no nodes", JSON.stringify({ version: "1.0.0", edges: [] })],
    ["no edges", JSON.stringify({ version: "1.0.0", nodes: [] })],
    ["an array", "[]"],
    ["null", "null"],
  ])("refuses %s with 'Invalid workflow file format'", (_name, text) => {
    expect(() => parseWorkflowFile(text)).toThrow(new Error("Invalid workflow file format"));
  });
});
