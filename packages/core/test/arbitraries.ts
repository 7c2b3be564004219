import fc from "fast-check";
import { type SavedWorkflow, serializeWorkflow } from "../src/index.ts";

/** A saved workflow of up to `maxNodes` chained nodes with odd text, and a chunk limit. */
export function chunkedWorkflow(maxNodes: number) {
  const node = fc.record({
    id: fc.uuid(),
    type: fc.constantFrom("text", "flux-pro"),
    position: fc.record({ x: fc.integer(), y: fc.integer() }),
    data: fc.record({
      label: fc.string(),
      inputValues: fc.dictionary(
        fc.string({ minLength: 1 }),
        fc.record({ value: fc.string({ maxLength: 400, unit: "binary" }) }),
      ),
    }),
  });
  return fc
    .tuple(fc.array(node, { maxLength: maxNodes }), fc.integer({ min: 300, max: 5000 }))
    .map(([nodes, maxChunkBytes]) => {
      const edges = nodes.slice(1).map((target, index) => ({
        id: `e${index}`,
        source: nodes[index]?.id ?? "",
        target: target.id,
      }));
      const saved: SavedWorkflow = serializeWorkflow({ nodes, edges }, { now: 5 });
      return { saved, maxChunkBytes };
    });
}
