/**
 * A glTF 2.0 binary (GLB) writer for one triangle mesh with flat normals and one material:
 * the container is a 12-byte header and two chunks, small enough to write by hand.
 */

/** One indexed triangle mesh with a single PBR material. */
export interface MeshData {
  name: string;
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint16Array | Uint32Array;
  /** Linear RGBA, 0–1. */
  baseColor: [number, number, number, number];
  metallic: number;
  roughness: number;
  /** Stored in the node's `extras` (e.g. the prompt and seed it came from). */
  extras?: Record<string, unknown>;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

const pad4 = (n: number) => (n + 3) & ~3;

// glTF requires min/max on POSITION; computing them on the float32 values makes them exact.
function bounds(values: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) {
    const c = i % 3;
    const v = values[i] ?? 0;
    if (v < (min[c] ?? 0)) min[c] = v;
    if (v > (max[c] ?? 0)) max[c] = v;
  }
  return { min, max };
}

/** Builds the GLB bytes of one mesh. */
export function writeGlb(mesh: MeshData): Buffer {
  const views = [mesh.positions, mesh.normals, mesh.indices];
  const offsets: number[] = [];
  let length = 0;
  for (const view of views) {
    offsets.push(length);
    length = pad4(length + view.byteLength); // each view starts 4-byte aligned
  }
  const bin = Buffer.alloc(length);
  views.forEach((view, i) => {
    Buffer.from(view.buffer, view.byteOffset, view.byteLength).copy(bin, offsets[i]);
  });
  const wide = mesh.indices instanceof Uint32Array;
  const vertexCount = mesh.positions.length / 3;
  const json = {
    asset: { version: "2.0", generator: "Atelier local provider" },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: mesh.name, ...(mesh.extras ? { extras: mesh.extras } : {}) }],
    meshes: [
      {
        name: mesh.name,
        primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0, mode: 4 }],
      },
    ],
    materials: [
      {
        name: `${mesh.name} material`,
        pbrMetallicRoughness: {
          baseColorFactor: mesh.baseColor,
          metallicFactor: mesh.metallic,
          roughnessFactor: mesh.roughness,
        },
      },
    ],
    buffers: [{ byteLength: bin.length }],
    bufferViews: views.map((view, i) => ({
      buffer: 0,
      byteOffset: offsets[i],
      byteLength: view.byteLength,
      target: i === 2 ? ELEMENT_ARRAY_BUFFER : ARRAY_BUFFER,
    })),
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: vertexCount,
        type: "VEC3",
        ...bounds(mesh.positions),
      },
      { bufferView: 1, componentType: 5126, count: vertexCount, type: "VEC3" },
      {
        bufferView: 2,
        componentType: wide ? 5125 : 5123,
        count: mesh.indices.length,
        type: "SCALAR",
      },
    ],
  };
  const jsonText = Buffer.from(JSON.stringify(json), "utf8");
  const jsonChunk = Buffer.alloc(pad4(jsonText.length), 0x20); // JSON is padded with spaces
  jsonText.copy(jsonChunk);
  const total = 12 + 8 + jsonChunk.length + 8 + bin.length;
  const out = Buffer.alloc(total);
  out.writeUInt32LE(GLB_MAGIC, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(total, 8);
  out.writeUInt32LE(jsonChunk.length, 12);
  out.writeUInt32LE(CHUNK_JSON, 16);
  jsonChunk.copy(out, 20);
  const binStart = 20 + jsonChunk.length;
  out.writeUInt32LE(bin.length, binStart);
  out.writeUInt32LE(CHUNK_BIN, binStart + 4);
  bin.copy(out, binStart + 8);
  return out;
}
