/**
 * Large saved workflows for load and save figures: the seeded fixture graph (~1.2 wires per
 * node) as a workflow that has been used for a while, sized to a byte count by its node
 * count. Same size, same bytes, every run.
 *
 * What makes a real workflow big is many nodes with their results, not giant prompts: each
 * node here has a prompt of 150–900 characters and, when it generates, up to 20 earlier
 * results (request id, time, media URLs), as the runner keeps them (SPEC §9). That is
 * structure-heavy JSON, which V8 parses at roughly the speed performance.md assumes; a
 * file of a few long strings parses ~10× faster and made L1's parse baseline a few ms.
 */

const WORDS = (
  "a lighthouse on a cliff at dusk volumetric light film grain 35 mm portrait of an old " +
  "fisherman weathered skin soft window light studio backdrop cinematic wide shot neon rain " +
  "reflections isometric city at night watercolor texture"
).split(" ");
const MIB = 1024 * 1024;
export const SIZES = { "5 MB": Math.round(5.1 * MIB), "10 MB": Math.round(9.9 * MIB) };
const EXTENSIONS = { image: "png", video: "mp4", model: "glb", text: null };

const hex = (next, length) =>
  Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join("");
const uuid = (next) =>
  `${hex(next, 8)}-${hex(next, 4)}-4${hex(next, 3)}-a${hex(next, 3)}-${hex(next, 12)}`;

function prompt(next, id) {
  const words = [`${id}:`];
  const length = 150 + Math.floor(next() * 750);
  let size = 0;
  while (size < length) {
    const word = WORDS[Math.floor(next() * WORDS.length)];
    words.push(word);
    size += word.length + 1;
  }
  return words.join(" ");
}

/** A generator node's results: what runner.ts writes when a job completes. */
function results(next, port) {
  const extension = EXTENSIONS[port];
  const count = Math.floor(next() * 21);
  const history = [];
  let at = 1_790_000_000_000 + Math.floor(next() * 1e9);
  for (let run = 0; run < count; run++) {
    at += 30_000 + Math.floor(next() * 600_000);
    const url = `/api/media/file/${uuid(next)}.${extension}`;
    history.push({
      requestId: uuid(next),
      at,
      outputs: { [port]: url },
      outputValues: { [port]: { value: url } },
    });
  }
  const last = history.at(-1);
  if (!last) return {};
  return {
    status: "complete",
    history,
    outputs: last.outputs,
    outputValues: last.outputValues,
    runSignature: hex(next, 40),
  };
}

async function build(count, name) {
  const { serializeWorkflow } = await import("@atelier/core");
  const { generateFixture, random } = await import("../fixtures/generate.ts");
  const { nodes, edges } = generateFixture(count, 7);
  const next = random(11);
  const outPort = new Map(edges.map((edge) => [edge.source, edge.sourceHandle]));
  for (const node of nodes) {
    const key = node.type === "text" ? "text" : "prompt";
    node.data.inputValues = { [key]: { value: prompt(next, node.id) } };
    const port = outPort.get(node.id) ?? (node.type === "3d" ? "model" : "image");
    if (node.type !== "text") Object.assign(node.data, results(next, port));
  }
  return serializeWorkflow(nodes, edges, { name });
}

const sizeOf = (data) => Buffer.byteLength(JSON.stringify(data));

/** A SavedWorkflow of about `bytes` bytes (±0.5 %): as many used nodes as fit. */
export async function sizedWorkflow(bytes, name) {
  let count = Math.round(bytes / 3500);
  let data = await build(count, name);
  for (let pass = 0; pass < 6; pass++) {
    const size = sizeOf(data);
    if (Math.abs(size / bytes - 1) < 0.005) break;
    count = Math.max(1, Math.round((count * bytes) / size));
    data = await build(count, name);
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
