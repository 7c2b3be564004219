import sharp from "sharp";
import { expect } from "vitest";

// Decoders the local-media tests use in their assertions.

export async function rawOf(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const px = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    return Array.from(data.subarray(i, i + info.channels));
  };
  return { data, info, px };
}

/** Mean absolute difference per channel value between two same-sized decoded images. */
export async function meanDiff(a: Uint8Array, b: Uint8Array): Promise<number> {
  const ra = await sharp(a).removeAlpha().raw().toBuffer();
  const rb = await sharp(b).removeAlpha().raw().toBuffer();
  expect(ra.length).toBe(rb.length);
  let sum = 0;
  for (let i = 0; i < ra.length; i++) sum += Math.abs((ra[i] ?? 0) - (rb[i] ?? 0));
  return sum / ra.length;
}

export interface Ebml {
  id: number;
  data: Buffer;
  start: number;
}

/** Reads the EBML elements in `buf` (one level). IDs keep their marker bits, sizes drop them. */
export function ebml(buf: Buffer): Ebml[] {
  const out: Ebml[] = [];
  let pos = 0;
  const vint = (keepMarker: boolean) => {
    const first = buf[pos] ?? 0;
    let length = 1;
    while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
    let value = keepMarker ? first : first & (0xff >> length);
    for (let i = 1; i < length; i++) value = value * 256 + (buf[pos + i] ?? 0);
    pos += length;
    return value;
  };
  while (pos < buf.length) {
    const start = pos;
    const id = vint(true);
    const size = vint(false);
    out.push({ id, data: buf.subarray(pos, pos + size), start });
    pos += size;
  }
  return out;
}
export const child = (list: Ebml[], id: number) => {
  const found = list.find((e) => e.id === id);
  if (!found) throw new Error(`EBML element 0x${id.toString(16)} missing`);
  return found;
};
export const uintOf = (e: Ebml) => e.data.reduce((v, b) => v * 256 + b, 0);

export function parseWav(wav: Buffer) {
  return {
    riff: wav.toString("ascii", 0, 4),
    riffSize: wav.readUInt32LE(4),
    wave: wav.toString("ascii", 8, 12),
    fmt: wav.toString("ascii", 12, 16),
    fmtSize: wav.readUInt32LE(16),
    audioFormat: wav.readUInt16LE(20),
    channels: wav.readUInt16LE(22),
    sampleRate: wav.readUInt32LE(24),
    byteRate: wav.readUInt32LE(28),
    blockAlign: wav.readUInt16LE(32),
    bitsPerSample: wav.readUInt16LE(34),
    dataTag: wav.toString("ascii", 36, 40),
    dataSize: wav.readUInt32LE(40),
    samples: Array.from({ length: (wav.length - 44) / 2 }, (_, i) => wav.readInt16LE(44 + i * 2)),
  };
}

export function parseGlb(glb: Buffer) {
  const jsonLength = glb.readUInt32LE(12);
  const binStart = 20 + jsonLength;
  return {
    magic: glb.readUInt32LE(0),
    version: glb.readUInt32LE(4),
    length: glb.readUInt32LE(8),
    jsonType: glb.readUInt32LE(16),
    json: JSON.parse(glb.toString("utf8", 20, 20 + jsonLength)),
    binLength: glb.readUInt32LE(binStart),
    binType: glb.readUInt32LE(binStart + 4),
    bin: glb.subarray(binStart + 8, binStart + 8 + glb.readUInt32LE(binStart)),
  };
}

export async function pngOf(
  width: number,
  height: number,
  pixel: (x: number, y: number) => number[],
) {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 3);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
