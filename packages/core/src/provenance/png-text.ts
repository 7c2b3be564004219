import { decodeUtf8 } from "./utf8.ts";

/**
 * Reads a PNG's uncompressed `iTXt` text by keyword, from the bytes alone (browser and
 * server alike). Layout per the PNG spec: 8-byte signature, then chunks of
 * length (4, big-endian) · type (4) · data · CRC (4); iTXt data is
 * keyword \0 · compression flag · method · language \0 · translated keyword \0 · UTF-8 text.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((byte, index) => bytes[index] === byte);
}

const ascii = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** The text of the first uncompressed `iTXt` chunk named `keyword`, or null. */
export function readPngText(bytes: Uint8Array, keyword: string): string | null {
  if (!isPng(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = ascii(bytes.subarray(offset + 4, offset + 8));
    const start = offset + 8;
    const end = start + length;
    if (end + 4 > bytes.length || type === "IEND") return null;
    if (type === "iTXt") {
      const text = itxtText(bytes.subarray(start, end), keyword);
      if (text !== null) return text;
    }
    offset = end + 4;
  }
  return null;
}

function itxtText(data: Uint8Array, keyword: string): string | null {
  const keywordEnd = data.indexOf(0);
  if (keywordEnd < 1 || keywordEnd > 79 || ascii(data.subarray(0, keywordEnd)) !== keyword)
    return null;
  // Compressed text would need inflate: we only ever write it uncompressed.
  if (data[keywordEnd + 1] !== 0) return null;
  const languageEnd = data.indexOf(0, keywordEnd + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  return decodeUtf8(data.subarray(translatedEnd + 1));
}
