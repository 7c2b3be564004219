import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseInSteps } from "../src/features/persistence/parse-in-steps.ts";

type Answer = { workflow: { data: { nodes: unknown[] } | null } };
const locate = (answer: Answer) => answer.workflow?.data?.nodes;
const counter = () => {
  const calls = { count: 0 };
  return { calls, nextTask: async () => void calls.count++ };
};
const answerOf = (nodes: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ workflow: { id: "w1", ...extra, data: { version: 1, nodes, edges: [] } } });
// Small limits so that small texts take the stepped path.
const small = { fromChars: 0, pieceChars: 200 };

const awkward = [
  'a "quoted" word, with commas, [brackets] and {braces}',
  "back\\slash at the end \\",
  'ends with an escaped quote \\"',
  '"nodes":[ inside a string',
  "Nœud — 東京 🎨\n\ttab",
];

describe("parsing a large answer in steps", () => {
  it("answers exactly JSON.parse, a piece per task", async () => {
    const nodes = Array.from({ length: 60 }, (_, index) => ({
      id: `n${index}`,
      position: { x: index, y: -index },
      data: { prompt: awkward[index % awkward.length], list: [[1, 2], { a: [] }], empty: "" },
    }));
    const text = answerOf(nodes, { name: "x" });
    const { calls, nextTask } = counter();
    const parsed = await parseInSteps<Answer>(text, '"nodes":[', locate, nextTask, small);
    expect(parsed).toEqual(JSON.parse(text));
    expect(calls.count).toBeGreaterThan(10);
  });

  it("agrees with JSON.parse on any nodes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 30 }), async (nodes) => {
        const text = answerOf(nodes);
        const parsed = await parseInSteps<Answer>(text, '"nodes":[', locate, async () => {}, {
          fromChars: 0,
          pieceChars: 40,
        });
        expect(parsed).toEqual(JSON.parse(text));
      }),
      { numRuns: 200 },
    );
  });

  it("parses at once when the first match is not the array, or the text is short", async () => {
    const decoy = answerOf([{ id: "a" }, { id: "b" }], { meta: { nodes: [1, 2, 3] } });
    const first = counter();
    expect(await parseInSteps<Answer>(decoy, '"nodes":[', locate, first.nextTask, small)).toEqual(
      JSON.parse(decoy),
    );
    const short = answerOf([{ id: "a" }]);
    const second = counter();
    expect(await parseInSteps<Answer>(short, '"nodes":[', locate, second.nextTask)).toEqual(
      JSON.parse(short),
    );
    expect(second.calls.count).toBe(0);
  });

  it("keeps JSON.parse's errors for broken text", async () => {
    const broken = `${answerOf([{ id: "a" }, { id: "b" }]).slice(0, -10)}`;
    await expect(
      parseInSteps<Answer>(broken, '"nodes":[', locate, async () => {}, small),
    ).rejects.toThrow(SyntaxError);
  });
});

describe("parsing a large answer in steps: what JSON.parse refuses", () => {
  it("refuses an empty item or a trailing comma in the array, as JSON.parse does", async () => {
    const good = answerOf([{ id: "a" }, { id: "b" }, { id: "c" }]);
    for (const broken of [good.replace("},{", "},,{"), good.replace('}],"edges"', '},],"edges"')]) {
      expect(() => JSON.parse(broken)).toThrow(SyntaxError);
      await expect(
        parseInSteps<Answer>(broken, '"nodes":[', locate, async () => {}, small),
      ).rejects.toThrow(SyntaxError);
    }
  });

  it("parses at once when an earlier array of the same key is not the one meant", async () => {
    // The real nodes are empty; a cut of the earlier array must not move its items.
    const text = JSON.stringify({
      workflow: { meta: { nodes: [1, 2, 3] }, data: { nodes: [], edges: [] } },
    });
    const parsed = await parseInSteps<Answer>(text, '"nodes":[', locate, async () => {}, small);
    expect(parsed).toEqual(JSON.parse(text));
  });
});
