/**
 * Procedural 3D for 3D nodes: a seeded low-poly solid of revolution (a vase, gem or spindle
 * shape) written as GLB, plus a snapshot PNG that is a real flat-shaded orthographic render
 * of the same triangles.
 */
import sharp from "sharp";
import { writeGlb } from "./glb.ts";
import { randInt, rngFrom } from "./seed.ts";
import { hsl, svgDocument } from "./svg.ts";

export interface RenderModelOptions {
  prompt: string;
  seed: number;
  /** Snapshot size in pixels (square), 64–2048; default 512. */
  snapshotSize?: number;
}

export interface RenderedModel {
  glb: Buffer;
  contentType: "model/gltf-binary";
  /** PNG render of the model. */
  snapshot: Buffer;
  triangleCount: number;
}

type Vec3 = [number, number, number];

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const normalize = (a: Vec3): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** The seeded mesh as triangles (three corners each), wound counter-clockwise from outside. */
function buildTriangles(rng: () => number): Vec3[][] {
  const sides = randInt(rng, 5, 12);
  const rings = randInt(rng, 3, 7); // rings between the two poles
  const twist = rng() < 0.5 ? 0 : Math.PI / sides; // alternate rings offset: a faceted gem look
  const profile: { y: number; r: number }[] = [{ y: 0, r: 0 }];
  let y = 0;
  for (let k = 0; k < rings; k++) {
    y += 0.3 + rng() * 0.7; // strictly rising, so every face leans outward
    profile.push({ y, r: 0.25 + rng() * 0.75 });
  }
  profile.push({ y: y + 0.3 + rng() * 0.5, r: 0 });
  // Rescale heights to 1.2–2.6 units: a profile of many rings would otherwise be a needle.
  const height = 1.2 + rng() * 1.4;
  const raw = profile[profile.length - 1]?.y ?? 1;
  for (const point of profile) point.y *= height / raw;
  const top = height;
  const ring = (k: number): Vec3[] => {
    const { y: ry, r } = profile[k] ?? { y: 0, r: 0 };
    return Array.from({ length: sides }, (_, j) => {
      const a = (2 * Math.PI * j) / sides + k * twist;
      return [r * Math.cos(a), ry - top / 2, r * Math.sin(a)];
    });
  };
  const triangles: Vec3[][] = [];
  const add = (a: Vec3, b: Vec3, c: Vec3) => {
    if (a === b || b === c) return;
    const n = cross(sub(b, a), sub(c, a));
    const mid = [(a[0] + b[0] + c[0]) / 3, (a[2] + b[2] + c[2]) / 3];
    // Flip to counter-clockwise-from-outside: outward normals point away from the Y axis.
    triangles.push(n[0] * (mid[0] ?? 0) + n[2] * (mid[1] ?? 0) >= 0 ? [a, b, c] : [a, c, b]);
  };
  for (let k = 0; k + 1 < profile.length; k++) {
    const lower = ring(k);
    const upper = ring(k + 1);
    for (let j = 0; j < sides; j++) {
      const j2 = (j + 1) % sides;
      const [a, b, c, d] = [lower[j], lower[j2], upper[j], upper[j2]] as Vec3[];
      if (k > 0) add(a as Vec3, b as Vec3, c as Vec3); // the bottom pole ring is one point
      if (k + 2 < profile.length) add(b as Vec3, d as Vec3, c as Vec3); // so is the top one
    }
  }
  return triangles;
}

/** Flat-shaded orthographic render of the triangles, as SVG polygons painted back to front. */
function snapshotSvg(triangles: Vec3[][], size: number, hue: number): Buffer {
  const yaw = 0.6;
  const pitch = 0.35;
  const view = ([x, y, z]: Vec3): Vec3 => {
    const x1 = x * Math.cos(yaw) + z * Math.sin(yaw);
    const z1 = -x * Math.sin(yaw) + z * Math.cos(yaw);
    return [
      x1,
      y * Math.cos(pitch) - z1 * Math.sin(pitch),
      y * Math.sin(pitch) + z1 * Math.cos(pitch),
    ];
  };
  const light = normalize([-0.4, 0.7, 0.6]);
  const projected = triangles.map((t) => t.map(view));
  let extent = 0;
  for (const t of projected)
    for (const p of t) extent = Math.max(extent, Math.abs(p[0]), Math.abs(p[1]));
  const scale = (size * 0.4) / (extent || 1);
  const faces = projected
    .map((t) => ({
      t,
      n: normalize(cross(sub(t[1] as Vec3, t[0] as Vec3), sub(t[2] as Vec3, t[0] as Vec3))),
    }))
    .filter(({ n }) => n[2] > 0) // facing the camera
    .sort((a, b) => a.t.reduce((s, p) => s + p[2], 0) - b.t.reduce((s, p) => s + p[2], 0));
  const polygons = faces.map(({ t, n }) => {
    const shade = 0.25 + 0.75 * Math.max(0, n[0] * light[0] + n[1] * light[1] + n[2] * light[2]);
    const fill = hsl(hue, 0.55, 0.12 + 0.5 * shade);
    const points = t.map(
      (p) => `${(size / 2 + p[0] * scale).toFixed(2)},${(size / 2 - p[1] * scale).toFixed(2)}`,
    );
    return `<polygon points="${points.join(" ")}" fill="${fill}" stroke="${fill}" stroke-width="0.6" stroke-linejoin="round"/>`;
  });
  const background = [
    '<defs><radialGradient id="bg" cx=".5" cy=".4" r=".8"><stop offset="0" stop-color="#f4f4f6"/><stop offset="1" stop-color="#b9bcc4"/></radialGradient></defs>',
    `<rect width="${size}" height="${size}" fill="url(#bg)"/>`,
    `<ellipse cx="${size / 2}" cy="${size * 0.88}" rx="${size * 0.28}" ry="${size * 0.04}" fill="#000" opacity="0.18"/>`,
  ];
  return svgDocument(size, size, background.join("") + polygons.join(""));
}

/**
 * Renders a deterministic low-poly model: a GLB (glTF 2.0, POSITION + NORMAL, 16-bit
 * indices, one PBR material, prompt and seed in the node's extras) and a PNG snapshot.
 */
export async function renderModel(options: RenderModelOptions): Promise<RenderedModel> {
  const size = Math.round(Math.min(2048, Math.max(64, options.snapshotSize ?? 512)));
  const prompt = options.prompt ?? "";
  const rng = rngFrom("model", prompt, options.seed);
  const hue = rng() * 360;
  const triangles = buildTriangles(rng);
  const positions = new Float32Array(triangles.length * 9);
  const normals = new Float32Array(triangles.length * 9);
  triangles.forEach((t, i) => {
    const n = normalize(cross(sub(t[1] as Vec3, t[0] as Vec3), sub(t[2] as Vec3, t[0] as Vec3)));
    t.forEach((p, c) => {
      positions.set(p, i * 9 + c * 3);
      normals.set(n, i * 9 + c * 3);
    });
  });
  // Flat shading needs each face's own corners, so the index list is simply 0…n-1.
  const indices = Uint16Array.from({ length: triangles.length * 3 }, (_, i) => i);
  const srgb = hsl(hue, 0.55, 0.55);
  const linear = [1, 3, 5].map((i) => (Number.parseInt(srgb.slice(i, i + 2), 16) / 255) ** 2.2);
  const name = (prompt.trim() || "Local model").slice(0, 64);
  const glb = writeGlb({
    name,
    positions,
    normals,
    indices,
    baseColor: [linear[0] ?? 0, linear[1] ?? 0, linear[2] ?? 0, 1],
    metallic: Math.round(rng() * 40) / 100,
    roughness: 0.4 + Math.round(rng() * 50) / 100,
    extras: { generator: "local", prompt: prompt.slice(0, 500), seed: options.seed },
  });
  const snapshot = await sharp(snapshotSvg(triangles, size, hue), { density: 72 })
    .flatten({ background: "#ffffff" })
    .png()
    .toBuffer();
  return { glb, contentType: "model/gltf-binary", snapshot, triangleCount: triangles.length };
}
