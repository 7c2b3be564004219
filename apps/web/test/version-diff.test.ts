import { serializeWorkflow } from "@atelier/core";
import { describe, expect, it } from "vitest";
import { changedNodeIds, describeSummary } from "../src/features/history/version-diff.ts";

const workflow = (prompts: Record<string, string>) =>
  serializeWorkflow(
    {
      nodes: Object.entries(prompts).map(([id, value], index) => ({
        id,
        type: "text",
        position: { x: index * 400, y: 0 },
        data: { label: id, inputValues: { text: { value } } },
      })),
      edges: [],
      metadata: { name: "Diff" },
    },
    { now: 0 },
  );

describe("version history on the web", () => {
  it("outlines the nodes of a version that differ from the workflow now, or are gone from it", () => {
    const version = workflow({ a: "fox", b: "owl", c: "cat" });
    const now = workflow({ a: "fox", b: "hawk", d: "new" });
    expect(changedNodeIds(version, now)).toEqual(["b", "c"]);
    expect(changedNodeIds(version, version)).toEqual([]);
    expect(changedNodeIds(version, null)).toEqual([]);
  });

  it("says what a version changed in words", () => {
    expect(describeSummary({ added: 2, removed: 0, changed: 1 })).toBe(
      "2 nodes added · 1 node changed",
    );
    expect(describeSummary({ added: 0, removed: 1, changed: 0 })).toBe("1 node removed");
    expect(describeSummary({ added: 0, removed: 0, changed: 0 })).toBe("No node changed");
  });
});
