import {
  gatherInputs,
  getNodeDefinition,
  planRun,
  RUN_PLAN_MESSAGES,
  validateConnection,
} from "@atelier/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { DocumentGraph } from "../src/features/document/types.ts";
import type { Persistence } from "../src/features/persistence/persistence.ts";
import { openTemplate } from "../src/features/templates/open-template.ts";
import { TEMPLATES } from "../src/features/templates/templates.ts";

const typeOf = (graph: DocumentGraph, id: string) =>
  graph.nodes.find((node) => node.id === id)?.type ?? "";
const runs = (type: string | undefined) => getNodeDefinition(type ?? "")?.run.kind !== "none";
const asConnectionGraph = (graph: DocumentGraph) => ({
  nodes: graph.nodes.map((node) => ({ id: node.id, type: node.type ?? "", data: node.data })),
  edges: graph.edges,
});

describe("starter templates", () => {
  it("offers 8 to 10 templates with unique ids, a title and a one-line description", () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(TEMPLATES.length).toBeLessThanOrEqual(10);
    expect(new Set(TEMPLATES.map((template) => template.id)).size).toBe(TEMPLATES.length);
    for (const template of TEMPLATES) {
      expect(template.id).toMatch(/^[a-z0-9-]+$/);
      expect(template.title.trim()).not.toBe("");
      expect(template.description.trim()).not.toBe("");
      expect(template.description).not.toContain("\n");
    }
  });

  describe.each(TEMPLATES.map((template) => [template.id, template] as const))("%s", (_, t) => {
    const graph = t.build();

    it("is built fresh each time, with unique node and wire ids", () => {
      const ids = [...graph.nodes, ...graph.edges].map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      const again = t.build();
      expect(again.nodes).toHaveLength(graph.nodes.length);
      expect(again.nodes.map((node) => node.id)).not.toEqual(graph.nodes.map((node) => node.id));
    });

    it("uses catalogue node types only, with valid parameters and no stacked cards", () => {
      for (const node of graph.nodes) {
        const definition = getNodeDefinition(node.type ?? "");
        expect(definition, `${node.type}`).toBeDefined();
        if (!definition) continue;
        expect(definition.lifecycle?.status, `${node.type} is retired`).not.toBe("retired");
        const params = Object.fromEntries(
          Object.entries(node.data.inputValues ?? {}).map(([name, slot]) => [name, slot.value]),
        );
        expect(definition.params.safeParse(params).success, `${node.type} params`).toBe(true);
      }
      const spots = graph.nodes.map((node) => `${node.position.x},${node.position.y}`);
      expect(new Set(spots).size).toBe(spots.length);
    });

    it("has wires that core's validateConnection accepts against the whole graph", () => {
      for (const edge of graph.edges) {
        const others = { ...graph, edges: graph.edges.filter((other) => other !== edge) };
        const verdict = validateConnection(asConnectionGraph(others), edge);
        expect(verdict, `${typeOf(graph, edge.source)} → ${typeOf(graph, edge.target)}`).toEqual({
          ok: true,
        });
        expect(edge.sourceHandle).toBeTruthy();
        expect(edge.targetHandle).toBeTruthy();
        const port = getNodeDefinition(typeOf(graph, edge.source))?.outputs.find(
          (output) => output.id === edge.sourceHandle,
        );
        expect(edge.data?.dataType).toBe(port?.type);
      }
    });

    it("has something to run, and every required input wired or filled in", () => {
      expect(graph.nodes.some((node) => runs(node.type))).toBe(true);
      for (const node of graph.nodes) {
        if (node.type === "text") expect(String(node.data.inputValues?.text?.value)).not.toBe("");
        // What a run would send: a wired input gets its value when its source has run, and
        // core's gathering knows the rest (a node's own prompt, a scene's default one).
        if (runs(node.type) || node.type === "character-reference") {
          const definition = getNodeDefinition(node.type ?? "");
          const wired = new Set(
            graph.edges.filter((edge) => edge.target === node.id).map((edge) => edge.targetHandle),
          );
          const wiredLabels = new Set(
            definition?.inputs.filter((port) => wired.has(port.id)).map((port) => port.label),
          );
          const missing = gatherInputs(graph.nodes, graph.edges, node.id).missing.filter(
            (label) => !wiredLabels.has(label),
          );
          expect(missing, `${node.type}`).toEqual([]);
        }
      }
      // The server's own check of a Run all (the automation's generators run from the tab).
      const plan = planRun(graph);
      if (graph.nodes.some((node) => node.type === "image-automation")) {
        if (!plan.ok) expect(plan.message).toBe(RUN_PLAN_MESSAGES.nothingToRun);
        for (const node of graph.nodes.filter((each) => each.type === "image-automation"))
          expect(gatherInputs(graph.nodes, graph.edges, node.id).missing).toEqual([]);
      } else {
        expect(plan.ok ? "ok" : plan.message).toBe("ok");
      }
    });

    it("loads into the document store as it is", () => {
      const documents = createDocumentStore();
      documents.getState().load(graph);
      expect(documents.getState().nodes).toHaveLength(graph.nodes.length);
      expect(documents.getState().edges).toHaveLength(graph.edges.length);
      expect(documents.getState().past).toEqual([]);
    });
  });
});

describe("openTemplate", () => {
  afterEach(() => vi.unstubAllGlobals());
  const template = TEMPLATES[0] as (typeof TEMPLATES)[number];
  const setup = (allowed: boolean) => {
    const documents = createDocumentStore();
    const calls: string[] = [];
    const persistence = {
      replaceWith: vi.fn(async (action: () => unknown) => {
        calls.push("ask");
        if (allowed) await action();
      }),
      newWorkflow: vi.fn(() => {
        calls.push("new");
        documents.getState().load({ nodes: [], edges: [] });
      }),
      setName: vi.fn((name: string) => calls.push(`name ${name}`)),
    } as unknown as Persistence;
    const flow = { getNodes: () => documents.getState().nodes, fitView: vi.fn(async () => true) };
    vi.stubGlobal("requestAnimationFrame", (step: () => void) => setTimeout(step, 0));
    return { documents, calls, persistence, flow };
  };

  it("asks first, then opens a new workflow holding the template, named after it, in view", async () => {
    const { documents, calls, persistence, flow } = setup(true);
    await openTemplate(template, persistence, documents, flow);
    expect(calls).toEqual(["ask", "new", `name ${template.title}`]);
    expect(documents.getState().nodes.map((node) => node.type)).toEqual(
      template.build().nodes.map((node) => node.type),
    );
    await vi.waitFor(() => expect(flow.fitView).toHaveBeenCalled());
  });

  it("leaves the canvas alone when the user cancels", async () => {
    const { documents, calls, persistence, flow } = setup(false);
    await openTemplate(template, persistence, documents, flow);
    expect(calls).toEqual(["ask"]);
    expect(documents.getState().nodes).toEqual([]);
  });
});
