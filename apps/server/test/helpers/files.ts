import sharp from "sharp";

/** Real bytes of each kind, small enough for tests. */
export async function pngBytes(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#3b82f6" } })
    .png()
    .toBuffer();
}

export function mp4Bytes(): Buffer {
  const ftyp = Buffer.from("00000018667479706d703432000000006d70343269736f6d", "hex");
  const mdat = Buffer.concat([Buffer.from("000000106d646174", "hex"), Buffer.alloc(8)]);
  return Buffer.concat([ftyp, mdat]);
}

export function wavBytes(samples = 800): Buffer {
  const data = Buffer.alloc(samples * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export function glbBytes(): Buffer {
  const json = Buffer.from(JSON.stringify({ asset: { version: "2.0" } }).padEnd(28, " "));
  const header = Buffer.alloc(12);
  header.write("glTF", 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length, 8);
  const chunkHeader = Buffer.alloc(8);
  chunkHeader.writeUInt32LE(json.length, 0);
  chunkHeader.write("JSON", 4);
  return Buffer.concat([header, chunkHeader, json]);
}

/** A multipart body for POST /api/media. */
export function uploadForm(
  file: { name: string; type: string; bytes: Buffer },
  fields: Record<string, string>,
): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}
