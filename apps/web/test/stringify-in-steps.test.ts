import { describe, expect, it } from "vitest";
import {
  ITEMS_PER_STEP,
  stringifyInSteps,
} from "../src/features/persistence/stringify-in-steps.ts";

const nodes = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    label: index % 7 === 0 ? 'quote " and \\ slash' : undefined,
    position: { x: index, y: -index / 3 },
  }));

// The worker is sent the document as JSON written a slice per task (issue 26: no long task).
describe("stringifyInSteps", () => {
  it("writes exactly JSON.stringify's text, over one slice and many", async () => {
    for (const count of [0, 1, ITEMS_PER_STEP, ITEMS_PER_STEP + 1, 3 * ITEMS_PER_STEP + 17]) {
      const value = {
        nodes: nodes(count),
        edges: [null, undefined, { id: "e1" }],
        gone: undefined,
        metadata: { name: "Ünïcode ✓", id: null },
      };
      expect(await stringifyInSteps(value)).toBe(JSON.stringify(value));
    }
  });

  it("lets a waiting task run after the first slice, before the second", async () => {
    let written = 0;
    const items = Array.from({ length: 2 * ITEMS_PER_STEP }, () => ({
      toJSON: () => ++written,
    }));
    let writtenWhenTaskRan = -1;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      writtenWhenTaskRan = written;
      channel.port1.close();
    };
    channel.port2.postMessage(null);
    const text = await stringifyInSteps({ items });
    expect(writtenWhenTaskRan).toBe(ITEMS_PER_STEP);
    expect(JSON.parse(text).items).toHaveLength(2 * ITEMS_PER_STEP);
  });
});
