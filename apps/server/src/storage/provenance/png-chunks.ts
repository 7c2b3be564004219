import { crc32 } from "node:zlib";

/**
 * A small PNG chunk writer: adds an uncompressed `iTXt` text chunk right after the header
 * (readers that stop at the first image data still see it). Chunk layout per the PNG spec:
 * length (4, big-endian) · type (4) · data · CRC-32 of type and data (4).
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** iTXt data: keyword \0, not compressed (0, 0), no language \0, no translated keyword \0, text. */
export function itxtChunk(keyword: string, text: string): Buffer {
  if (!/^[\x20-\x7e]{1,79}$/.test(keyword)) throw new Error(`Invalid PNG keyword: ${keyword}`);
  const data = Buffer.concat([
    Buffer.from(keyword, "latin1"),
    Buffer.from([0, 0, 0, 0, 0]),
    Buffer.from(text, "utf8"),
  ]);
  return chunk("iTXt", data);
}

/** The PNG with an `iTXt` chunk inserted after IHDR; throws when the bytes are not a PNG. */
export function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error("Not a PNG file");
  if (png.toString("latin1", 12, 16) !== "IHDR") throw new Error("PNG without a header chunk");
  // IHDR: 8 bytes of length and type, 13 of data, 4 of CRC.
  const afterHeader = 8 + 8 + png.readUInt32BE(8) + 4;
  return Buffer.concat([
    png.subarray(0, afterHeader),
    itxtChunk(keyword, text),
    png.subarray(afterHeader),
  ]);
}
