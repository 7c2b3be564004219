import { crc32 } from "node:zlib";

/**
 * An independent PNG chunk reader for tests (not the server's writer, not core's reader):
 * every chunk with its type, data and whether its CRC holds.
 */
export interface PngChunk {
  type: string;
  data: Buffer;
  crcOk: boolean;
}

export function pngChunks(png: Buffer): PngChunk[] {
  expect8(png);
  const chunks: PngChunk[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    chunks.push({
      type: typeAndData.toString("latin1", 0, 4),
      data: typeAndData.subarray(4),
      crcOk: png.readUInt32BE(offset + 8 + length) === crc32(typeAndData),
    });
    offset += 12 + length;
  }
  return chunks;
}

function expect8(png: Buffer) {
  if (png.toString("hex", 0, 8) !== "89504e470d0a1a0a") throw new Error("not a PNG");
}

/** An iTXt chunk's fields, split at its NUL separators. */
export function itxtFields(data: Buffer) {
  const keywordEnd = data.indexOf(0);
  const languageEnd = data.indexOf(0, keywordEnd + 3);
  const translatedEnd = data.indexOf(0, languageEnd + 1);
  return {
    keyword: data.toString("latin1", 0, keywordEnd),
    compressed: data[keywordEnd + 1] === 1,
    text: data.toString("utf8", translatedEnd + 1),
  };
}
