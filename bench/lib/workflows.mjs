/**
 * Large saved workflows for load and save figures: the seeded fixture graph (~1.2 wires per
 * node) with long prompts, sized to a byte count. Same size, same bytes, every run.
 */

const WORDS = "a lighthouse on a cliff at dusk, volumetric light, film grain, 35 mm, ";
const MIB = 1024 * 1024;
export const SIZES = { "5 MB": Math.round(5.1 * MIB), "10 MB": Math.round(9.9 * MIB) };

/** A SavedWorkflow of about `bytes` bytes (±0.5 %) with `count` nodes. */
export async function sizedWorkflow(bytes, name, count = Math.round(bytes / 10_300)) {
  const { serializeWorkflow } = await import("@atelier/core");
  const { generateFixture } = await import("../fixtures/generate.ts");
  const build = (perNode) => {
    const { nodes, edges } = generateFixture(count, 7);
    for (const node of nodes) {
      const key = node.type === "text" ? "text" : "prompt";
      const text = `${node.id}: ${WORDS.repeat(Math.ceil(perNode / WORDS.length))}`.slice(
        0,
        perNode,
      );
      node.data.inputValues = { [key]: { value: text } };
    }
    return serializeWorkflow(nodes, edges, { name });
  };
  let perNode = 10_000;
  let data = build(perNode);
  for (let pass = 0; pass < 3; pass++) {
    const size = Buffer.byteLength(JSON.stringify(data));
    if (Math.abs(size / bytes - 1) < 0.005) break;
    perNode = Math.max(10, Math.round(perNode + (bytes - size) / count));
    data = build(perNode);
  }
  return data;
}

/** The nodes of `data` in a JSON string of about `bytes` (a chunk's worth, for L2's limit). */
export function chunkText(data, bytes) {
  const nodes = [];
  let size = 2;
  for (const node of data.nodes) {
    const length = Buffer.byteLength(JSON.stringify(node)) + 1;
    if (size + length > bytes) break;
    nodes.push(node);
    size += length;
  }
  return JSON.stringify(nodes);
}
