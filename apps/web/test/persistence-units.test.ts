import { describe, expect, it, vi } from "vitest";
import { serializer, withTimeout } from "../src/features/persistence/serializer.ts";
import { WorkflowCache } from "../src/features/persistence/workflow-cache.ts";

const MB = 1024 * 1024;

describe("workflow cache (SPEC §9: 3 entries, 20 MB, 5 min, LRU)", () => {
  it("keeps 3 entries and evicts the least recently used", () => {
    let now = 0;
    const cache = new WorkflowCache<string>(() => now);
    cache.set("a", "A", 10);
    now = 1;
    cache.set("b", "B", 10);
    now = 2;
    cache.set("c", "C", 10);
    now = 3;
    expect(cache.get("a")).toBe("A");
    now = 4;
    cache.set("d", "D", 10);
    expect(cache.get("b")).toBeNull();
    expect(cache.size).toBe(3);
  });

  it("stays within 20 MB and forgets entries after 5 minutes", () => {
    let now = 0;
    const cache = new WorkflowCache<string>(() => now);
    cache.set("big", "x", 15 * MB);
    cache.set("bigger", "y", 10 * MB);
    expect(cache.get("big")).toBeNull();
    expect(cache.get("bigger")).toBe("y");
    cache.set("huge", "z", 21 * MB);
    expect(cache.get("huge")).toBeNull();
    now = 5 * 60 * 1000 + 1;
    expect(cache.get("bigger")).toBeNull();
  });
});

describe("serialization off the main thread", () => {
  it("times out with the step's message", async () => {
    await expect(
      withTimeout(new Promise(() => undefined), 10, "Serialization timeout"),
    ).rejects.toThrow("Serialization timeout");
    await expect(withTimeout(Promise.resolve(7), 10, "Clone timeout")).resolves.toBe(7);
  });

  it("falls back to the main thread when there is no worker", async () => {
    const saved = await serializer.serialize({
      nodes: [{ id: "a", type: "text", position: { x: 0, y: 0 }, data: {} }],
      edges: [],
    });
    expect(saved.version).toBe("1.0.0");
    expect(saved.nodes[0]).toMatchObject({ id: "a", selected: false });
    const chunks = await serializer.chunk(saved);
    expect(chunks[0]?.chunk_type).toBe("metadata");
    expect(await serializer.clone({ a: [1, 2] })).toEqual({ a: [1, 2] });
  });
});

describe("device copy as a Blob made in steps", () => {
  it("keeps every character, an emoji across a piece's end included", async () => {
    const { copyData, textBlob } = await import("../src/features/persistence/read-answer.ts");
    const answer = (prompt: string) =>
      JSON.stringify({ workflow: { data: { nodes: [{ id: "n", prompt }] } } });
    const before = answer("").indexOf('""') + 1;
    const prompt = `${"a".repeat(MB - 1 - before)}🦊 fox ${"é".repeat(10)}`;
    const text = answer(prompt);
    // The emoji's first half is the last character of the first piece without the care.
    expect(text.indexOf("🦊") % MB).toBe(MB - 1);
    const blob = await textBlob(text);
    expect(await blob.text()).toBe(text);
    expect(blob.type).toBe("application/json");
    const data = await copyData({ id: "w", name: "W", blob, updatedAt: 1 });
    expect(data).toEqual({ nodes: [{ id: "n", prompt }] });
    expect(await textBlob("")).toHaveProperty("size", 0);
    // Copies written by earlier versions hold the answer as a string.
    expect(await copyData({ id: "w", name: "W", text, updatedAt: 1 })).toEqual(data);
  });
});

describe("warming up the open's checks", () => {
  it("reads its sample workflow without a warning (an invalid sample would warm nothing)", async () => {
    const { warmUpReading } = await import("../src/features/persistence/read-graph.ts");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(warmUpReading()).toBe(true);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
