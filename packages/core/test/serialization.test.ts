import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  deserializeWorkflow,
  type EditorNode,
  LIMITS,
  loadWorkflowData,
  loadWorkflowDataInSteps,
  restoreVideoPlaceholders,
  serializeWorkflow,
  toLightweight,
  truncateText,
  validateWorkflow,
  type WorkflowDocument,
  zSavedWorkflow,
} from "../src/index.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

const editorNode = (id: string, data: Record<string, unknown> = {}): EditorNode => ({
  id,
  type: "flux-pro",
  position: { x: 10, y: 20 },
  data: { label: id, ...data },
  measured: { width: 320, height: 240 },
  selected: true,
  dragging: true,
});

describe("serializeWorkflow", () => {
  it("writes the saved form of SPEC §3", () => {
    const saved = serializeWorkflow(
      {
        nodes: [
          editorNode("a"),
          {
            ...editorNode("b"),
            type: "text",
            parentId: "g",
            extent: "parent",
            expandParent: true,
            style: { opacity: 1 },
          },
        ],
        edges: [
          {
            id: "e",
            source: "b",
            target: "a",
            sourceHandle: "text",
            targetHandle: "prompt",
            type: "default",
            animated: false,
            data: { dataType: "text" },
          },
        ],
        metadata: { name: "Fox", description: "A fox" },
        viewport: { x: 1, y: 2, zoom: 0.5 },
      },
      { now: NOW },
    );
    expect(saved.version).toBe("1.0.0");
    expect(saved.timestamp).toBe(NOW);
    expect(saved.nodes[0]).toEqual({
      id: "a",
      type: "flux-pro",
      position: { x: 10, y: 20 },
      data: { label: "a" },
      width: 320,
      height: 240,
      parentId: null,
      extent: null,
      expandParent: false,
      style: {},
      selected: false,
      dragging: false,
    });
    expect(saved.nodes[1]).toMatchObject({
      parentId: "g",
      extent: "parent",
      expandParent: true,
      style: { opacity: 1 },
    });
    expect(saved.edges[0]).toEqual({
      id: "e",
      source: "b",
      target: "a",
      sourceHandle: "text",
      targetHandle: "prompt",
      type: "default",
      animated: false,
      style: {},
      data: { dataType: "text" },
    });
    expect(saved.metadata).toMatchObject({
      name: "Fox",
      description: "A fox",
      modified: new Date(NOW).toISOString(),
      stats: { nodeCount: 2, edgeCount: 1, nodeTypes: ["flux-pro", "text"] },
    });
    expect(saved.viewport).toEqual({ x: 1, y: 2, zoom: 0.5 });
    expect(zSavedWorkflow.parse(saved)).toEqual(saved);
    expect(validateWorkflow(saved).valid).toBe(true);
  });

  it("fills an edge's data type from its source port", () => {
    const saved = serializeWorkflow({
      nodes: [editorNode("img"), { ...editorNode("v"), type: "kling-video" }],
      edges: [
        { id: "e", source: "img", sourceHandle: "image", target: "v", targetHandle: "image" },
      ],
    });
    expect(saved.edges[0]?.data).toEqual({ dataType: "image" });
  });

  it("also takes nodes, edges and metadata as separate arguments", () => {
    const saved = serializeWorkflow([editorNode("a")], [], { name: "Positional" });
    expect(saved.metadata.name).toBe("Positional");
    expect(saved.nodes[0]?.selected).toBe(false);
    expect(saved.version).toBe("1.0.0");
  });

  it("truncates text outputs over 51,200 characters with '... (truncated)'", () => {
    const long = "x".repeat(LIMITS.text.maxOutputChars + 10);
    const saved = serializeWorkflow({
      nodes: [
        editorNode("a", { outputs: { text: long }, outputValues: { text: { value: long } } }),
      ],
      edges: [],
    });
    const expected = `${"x".repeat(51_200)}... (truncated)`;
    expect(saved.nodes[0]?.data.outputs?.text).toBe(expected);
    expect(saved.nodes[0]?.data.outputValues?.text?.value).toBe(expected);
    expect(truncateText("short")).toBe("short");
    expect(truncateText("x".repeat(51_200))).toBe("x".repeat(51_200));
  });

  it("removes embedded data over 1 MB from outputs and keeps smaller data and URLs", () => {
    const big = `data:image/png;base64,${"A".repeat(LIMITS.text.maxEmbeddedOutputChars)}`;
    const small = "data:image/png;base64,AAAA";
    const saved = serializeWorkflow({
      nodes: [
        editorNode("a", {
          outputs: {
            imageUrl: big,
            image: small,
            images: [big, "https://x/y.png"],
            isolatedAudio: { url: big },
            videoUrl: "https://x/v.mp4",
          },
          outputValues: { image: { value: big } },
        }),
      ],
      edges: [],
    });
    expect(saved.nodes[0]?.data.outputs).toEqual({
      image: small,
      images: ["https://x/y.png"],
      videoUrl: "https://x/v.mp4",
    });
    expect(saved.nodes[0]?.data.outputValues).toEqual({ image: { value: null } });
  });

  it("keeps the newest 20 history entries within 102,400 characters", () => {
    const history = Array.from({ length: 30 }, (_, index) => ({ index, prompt: "p" }));
    const saved = serializeWorkflow({ nodes: [editorNode("a", { history })], edges: [] });
    expect(saved.nodes[0]?.data.history).toEqual(history.slice(10));
    const heavy = Array.from({ length: 5 }, (_, index) => ({ index, text: "t".repeat(30_000) }));
    const trimmed =
      serializeWorkflow({ nodes: [editorNode("a", { history: heavy })], edges: [] }).nodes[0]?.data
        .history ?? [];
    expect(JSON.stringify(trimmed).length).toBeLessThanOrEqual(102_400);
    expect(trimmed).toEqual(heavy.slice(2));
  });
});

describe("deserializeWorkflow and loading", () => {
  it("removes a legacy groupId on load", () => {
    const saved = serializeWorkflow({
      nodes: [editorNode("a", { groupId: "old-group" })],
      edges: [],
    });
    expect(saved.nodes[0]?.data).toHaveProperty("groupId");
    expect(deserializeWorkflow(saved).nodes[0]?.data).not.toHaveProperty("groupId");
  });

  it("recovers damaged data and says so", () => {
    const loaded = loadWorkflowData({
      version: "1.0.0",
      nodes: [{ id: "a", type: "text", position: { x: 0, y: 0 }, data: {} }, { type: "x" }],
      edges: [{ id: "e", source: "a", target: "missing" }],
    });
    expect(loaded.recovered).toBe(true);
    expect(loaded.document.nodes.map((node) => node.id)).toEqual(["a"]);
    expect(loaded.document.edges).toEqual([]);
    const clean = loadWorkflowData(serializeWorkflow({ nodes: [editorNode("a")], edges: [] }));
    expect(clean.recovered).toBe(false);
  });
});

describe("loadWorkflowDataInSteps", () => {
  const many = serializeWorkflow({
    nodes: Array.from({ length: 45 }, (_, index) =>
      editorNode(`n${index}`, { history: [{ requestId: `r${index}`, outputs: {} }] }),
    ),
    edges: Array.from({ length: 12 }, (_, index) => ({
      id: `e${index}`,
      source: `n${index}`,
      target: `n${index + 1}`,
      sourceHandle: "image",
      targetHandle: "image",
    })),
  });

  it("answers what loadWorkflowData answers, pausing before each step", async () => {
    let pauses = 0;
    const pause = async () => void pauses++;
    const stepped = await loadWorkflowDataInSteps(JSON.parse(JSON.stringify(many)), pause, 10);
    expect(stepped).toEqual(loadWorkflowData(JSON.parse(JSON.stringify(many))));
    // After the structure, before each of 5 batches of nodes and 2 of wires, and last.
    expect(pauses).toBe(9);
    expect(stepped.document.edges.map((edge) => edge.id)).toEqual(many.edges.map((e) => e.id));
  });

  it("recovers damaged or invalid data as loadWorkflowData does", async () => {
    const pause = async () => {};
    const damaged = { ...JSON.parse(JSON.stringify(many)), nodes: [...many.nodes, { type: "x" }] };
    const loaded = await loadWorkflowDataInSteps(damaged, pause, 10);
    expect(loaded.recovered).toBe(true);
    expect(loaded.document.nodes).toHaveLength(45);
    const badNode = JSON.parse(JSON.stringify(many));
    (badNode.nodes[30] as { position: unknown }).position = { x: "far" };
    await expect(loadWorkflowDataInSteps(badNode, pause, 10)).resolves.toEqual(
      loadWorkflowData(JSON.parse(JSON.stringify(badNode))),
    );
    await expect(loadWorkflowDataInSteps(42, pause)).resolves.toEqual(loadWorkflowData(42));
    // A wire the schema refuses fails the stepped load as it fails the whole one.
    const badEdge = JSON.parse(JSON.stringify(many));
    (badEdge.edges[0] as { sourceHandle: unknown }).sourceHandle = 7;
    const message = "Invalid workflow data: Invalid input: expected string, received number";
    expect(() => loadWorkflowData(JSON.parse(JSON.stringify(badEdge)))).toThrow(message);
    await expect(loadWorkflowDataInSteps(badEdge, pause, 10)).rejects.toThrow(message);
  });
});

describe("lightweight saves", () => {
  it("replaces embedded video with a marker and restores it afterwards", () => {
    const video = `data:video/mp4;base64,${"B".repeat(1000)}`;
    const image = "data:image/png;base64,AAAA";
    const saved = serializeWorkflow({
      nodes: [
        editorNode("a", { outputs: { videoUrl: video, image }, history: [{ videoUrl: video }] }),
      ],
      edges: [],
    });
    const { workflow, stash } = toLightweight(saved);
    const text = JSON.stringify(workflow);
    expect(text).not.toContain("data:video/");
    expect(text).toContain(image);
    expect(stash).toHaveLength(2);
    expect(restoreVideoPlaceholders(workflow, stash)).toEqual(saved);
  });
});

/** Generates editor documents in the normalized form the editor keeps. */
const documentArbitrary = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 0, maxLength: 12 })
  .chain((ids) =>
    fc.record({
      nodes: fc.tuple(
        ...ids.map((id) =>
          fc.record({
            id: fc.constant(id),
            type: fc.constantFrom("text", "flux-pro", "kling-video", "group"),
            position: fc.record({
              x: fc.integer({ min: -5000, max: 5000 }),
              y: fc.integer({ min: -5000, max: 5000 }),
            }),
            data: fc.record({
              label: fc.string({ maxLength: 20 }),
              inputValues: fc.dictionary(
                fc.string({ minLength: 1, maxLength: 6 }),
                fc.record({ value: fc.jsonValue() }),
              ),
              outputs: fc.dictionary(fc.constantFrom("imageUrl", "text", "videoUrl"), fc.webUrl()),
            }),
            width: fc.integer({ min: 50, max: 600 }),
            height: fc.integer({ min: 50, max: 600 }),
          }),
        ),
      ),
      edges:
        ids.length < 2
          ? fc.constant([])
          : fc.array(
              fc.record({
                id: fc.uuid(),
                source: fc.constantFrom(...ids),
                target: fc.constantFrom(...ids),
                sourceHandle: fc.constant("out"),
                targetHandle: fc.constant("in"),
              }),
              { maxLength: 15 },
            ),
      metadata: fc.record({ name: fc.string({ minLength: 1, maxLength: 30 }) }),
    }),
  ) as fc.Arbitrary<WorkflowDocument>;

describe("round trip", () => {
  it("serialize → deserialize gives back the same graph, and serializing again is stable", () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        const saved = serializeWorkflow(document, { now: NOW });
        const loaded = deserializeWorkflow(JSON.parse(JSON.stringify(saved)));
        // Every field of the document survives; the saved form adds its defaults.
        expect(loaded.nodes).toEqual(
          document.nodes.map((node) => expect.objectContaining(JSON.parse(JSON.stringify(node)))),
        );
        expect(loaded.edges).toEqual(
          document.edges.map((edge) => expect.objectContaining(JSON.parse(JSON.stringify(edge)))),
        );
        const json = (value: unknown) => JSON.parse(JSON.stringify(value));
        expect(json(serializeWorkflow(loaded, { now: NOW }))).toEqual(json(saved));
      }),
      { numRuns: 200 },
    );
  });
});
