import { serializeWorkflow, utf8ByteLength } from "@atelier/core";
import { describe, expect, it, vi } from "vitest";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";
import { snapshotOf } from "../src/features/persistence/delta-save.ts";
import {
  deviceCopyBlob,
  formSnapshot,
  savedBytes,
  savedForm,
} from "../src/features/persistence/saved-form.ts";

const NOW = Date.UTC(2026, 10, 28, 12);
const metadata = { name: "Fox ✨ workflow", id: "w1" };

/** Nodes as a used workflow has them: prompts (some not ASCII), results, sizes, a group. */
function graph(count: number): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const nodes: CanvasNode[] = [
    { id: "g", type: "group", position: { x: 0, y: 0 }, data: { label: "Group" } },
  ];
  for (let index = 0; index < count; index++) {
    const generator = index % 2 === 1;
    nodes.push({
      id: `n${index}`,
      type: generator ? "flux-pro" : "text",
      position: { x: index * 40, y: index % 7 },
      ...(index % 5 === 0 ? { parentId: "g" } : {}),
      measured: { width: 320, height: 180 + index },
      selected: index === 3,
      data: {
        inputValues: {
          [generator ? "prompt" : "text"]: {
            value: `${index}: a fox 🦊 at dusk, é ${"film grain ".repeat(80)}`,
          },
        },
        ...(generator
          ? {
              status: "complete" as const,
              outputs: { image: `/api/media/file/${index}.png` },
              history: [{ requestId: `r${index}`, at: NOW, outputs: { image: "/a.png" } }],
            }
          : {}),
      },
    });
  }
  const edges: CanvasEdge[] = [];
  for (let index = 1; index + 1 < count; index += 2)
    edges.push({
      id: `e${index}`,
      source: `n${index - 1}`,
      target: `n${index}`,
      sourceHandle: "text",
      targetHandle: "prompt",
    });
  return { nodes, edges };
}

const noYield = () => Promise.resolve();

describe("the saved form, made incrementally (issue 26, S3)", () => {
  it("is exactly what serializeWorkflow makes, and its size is JSON.stringify's", async () => {
    const { nodes, edges } = graph(40);
    const form = await savedForm(nodes, edges, metadata, { now: NOW });
    const whole = serializeWorkflow({ nodes, edges, metadata }, { now: NOW });
    expect(JSON.stringify(form.data)).toBe(JSON.stringify(whole));
    expect(form.edgesText).toBe(JSON.stringify(whole.edges));
    expect(form.nodeTexts).toEqual(whole.nodes.map((node) => JSON.stringify(node)));
    expect(savedBytes(form.data, form)).toBe(utf8ByteLength(JSON.stringify(whole)));
    // A thumbnail added to the metadata afterwards is counted too.
    const pictured = { ...form.data, metadata: { ...form.data.metadata, thumbnail: "data:x" } };
    expect(savedBytes(pictured, form)).toBe(utf8ByteLength(JSON.stringify(pictured)));
    expect(formSnapshot(form.data, form)).toEqual(snapshotOf(whole));
    const empty = await savedForm([], [], metadata, { now: NOW });
    expect(JSON.stringify(empty.data)).toBe(
      JSON.stringify(serializeWorkflow({ nodes: [], edges: [], metadata }, { now: NOW })),
    );
    expect(savedBytes(empty.data, empty)).toBe(utf8ByteLength(JSON.stringify(empty.data)));
  });

  it("after a one-prompt edit serializes that node only, and its texts compare by identity", async () => {
    const { nodes, edges } = graph(40);
    const first = await savedForm(nodes, edges, metadata, { now: NOW });
    const edited = nodes.map((node) =>
      node.id === "n7"
        ? { ...node, data: { ...node.data, inputValues: { prompt: { value: "changed" } } } }
        : node,
    );
    const second = await savedForm(edited, edges, metadata, { now: NOW + 1 });
    const at = edited.findIndex((node) => node.id === "n7");
    edited.forEach((_, index) => {
      if (index === at) expect(second.data.nodes[index]).not.toBe(first.data.nodes[index]);
      else {
        expect(second.data.nodes[index]).toBe(first.data.nodes[index]);
        expect(second.nodeTexts[index]).toBe(first.nodeTexts[index]);
      }
    });
    expect(second.data.edges[0]).toBe(first.data.edges[0]);
    // No wire changed: the wires' text is the last save's, not made again.
    expect(second.edgesText).toBe(first.edgesText);
    expect(JSON.stringify(second.data)).toBe(
      JSON.stringify(serializeWorkflow({ nodes: edited, edges, metadata }, { now: NOW + 1 })),
    );
    // A node whose only change is being selected saves the same text.
    const selected = edited.map((node, index) =>
      index === 2 ? { ...node, selected: true } : node,
    );
    const third = await savedForm(selected, edges, metadata, { now: NOW + 2 });
    expect(third.nodeTexts[2]).toBe(second.nodeTexts[2]);
  });

  it("makes the wires' text and size again when a wire changes", async () => {
    const { nodes, edges } = graph(40);
    const first = await savedForm(nodes, edges, metadata, { now: NOW });
    const rewired = [...edges.slice(1), { ...(edges[0] as CanvasEdge), id: "wire ✨ é" }];
    const second = await savedForm(nodes, rewired, metadata, { now: NOW });
    const whole = serializeWorkflow({ nodes, edges: rewired, metadata }, { now: NOW });
    expect(second.edgesText).not.toBe(first.edgesText);
    expect(second.edgesText).toBe(JSON.stringify(whole.edges));
    expect(savedBytes(second.data, second)).toBe(utf8ByteLength(JSON.stringify(whole)));
    const unwired = await savedForm(nodes, [], metadata, { now: NOW });
    expect(unwired.edgesText).toBe("[]");
    expect(savedBytes(unwired.data, unwired)).toBe(utf8ByteLength(JSON.stringify(unwired.data)));
  });

  it("yields between a few hundred new nodes (a first save of thousands)", async () => {
    const { nodes, edges } = graph(600);
    let yields = 0;
    const count = () => {
      yields++;
      return Promise.resolve();
    };
    await savedForm(nodes, edges, metadata, { now: NOW, yieldTask: count });
    expect(yields).toBe(2);
    yields = 0;
    await savedForm(nodes, edges, metadata, { now: NOW, yieldTask: count });
    expect(yields).toBe(0);
  });

  it("makes the device copy as the open's answer, from the same texts", async () => {
    const { nodes, edges } = graph(600);
    const form = await savedForm(nodes, edges, metadata, { now: NOW });
    expect(form.nodeTexts.join(",").length).toBeGreaterThan(2 * (1 << 18));
    const data = { ...form.data, metadata: { ...form.data.metadata, thumbnail: "data:x" } };
    const blob = await deviceCopyBlob("w1", 'Fox "copy"', data, form, noYield);
    const text = await blob.text();
    expect(text).toBe(JSON.stringify({ workflow: { id: "w1", name: 'Fox "copy"', data } }));
    expect(blob.type).toBe("application/json");
    const one = await savedForm(nodes.slice(0, 1), [], metadata, { now: NOW });
    const small = await (await deviceCopyBlob("w1", "One", one.data, one, noYield)).text();
    expect(JSON.parse(small)).toEqual({ workflow: { id: "w1", name: "One", data: one.data } });
  });
});

describe("the library picture after an edit (issue 26, S3)", () => {
  it("is not drawn again when no box or wire moved", async () => {
    const { drawThumbnail } = await import("../src/features/persistence/thumbnail.ts");
    const { nodes, edges } = graph(30);
    const canvases = vi.spyOn(document, "createElement");
    const drawn = () => canvases.mock.calls.filter(([tag]) => tag === "canvas").length;
    try {
      drawThumbnail(nodes, edges);
      expect(drawn()).toBe(1);
      const prompt = nodes.map((node, index) =>
        index === 4 ? { ...node, data: { ...node.data, label: "renamed" }, selected: true } : node,
      );
      drawThumbnail(prompt, edges);
      expect(drawn()).toBe(1);
      const moved = prompt.map((node, index) =>
        index === 4 ? { ...node, position: { x: 1, y: 2 } } : node,
      );
      drawThumbnail(moved, edges);
      expect(drawn()).toBe(2);
      drawThumbnail(moved, edges.slice(1));
      expect(drawn()).toBe(3);
    } finally {
      canvases.mockRestore();
    }
  });
});
