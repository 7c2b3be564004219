/**
 * Writes an XMP packet into JPEG and WebP files without re-encoding them (re-encoding with
 * sharp's `withXmp` would cost quality and drop animation). Each answers null when the file
 * cannot hold the packet: the caller keeps a sidecar instead.
 */

/** JPEG APP1 XMP: marker FFE1 · length (2, includes itself) · this namespace · \0 · packet. */
const JPEG_XMP_HEADER = Buffer.from("http://ns.adobe.com/xap/1.0/\0", "latin1");
const JPEG_SEGMENT_MAX = 0xffff;

const isJpegXmp = (segment: Buffer) =>
  segment[1] === 0xe1 && segment.subarray(4, 4 + JPEG_XMP_HEADER.length).equals(JPEG_XMP_HEADER);

const JPEG_EXIF_HEADER = Buffer.from("Exif\0\0", "latin1");
const isJpegExif = (segment: Buffer) =>
  segment[1] === 0xe1 && segment.subarray(4, 4 + JPEG_EXIF_HEADER.length).equals(JPEG_EXIF_HEADER);

/** The JPEG with our XMP segment in place of any it had (one XMP packet per file). */
export function withJpegXmp(jpeg: Buffer, xmp: string): Buffer | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  const packet = Buffer.from(xmp, "utf8");
  const length = 2 + JPEG_XMP_HEADER.length + packet.length;
  if (length > JPEG_SEGMENT_MAX) return null;
  // The marker segments before the image data: marker (2) · length (2, includes itself) · data.
  const segments: Buffer[] = [];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff && jpeg[at + 1] !== 0xda) {
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (end > jpeg.length) return null;
    segments.push(jpeg.subarray(at, end));
    at = end;
  }
  const kept = segments.filter((segment) => !isJpegXmp(segment));
  // JFIF's APP0 and Exif's APP1 each want to come first: the XMP segment goes after them.
  const leading = kept.findIndex((segment) => segment[1] !== 0xe0 && !isJpegExif(segment));
  const split = leading === -1 ? kept.length : leading;
  const ours = Buffer.concat([
    Buffer.from([0xff, 0xe1, length >> 8, length & 0xff]),
    JPEG_XMP_HEADER,
    packet,
  ]);
  return Buffer.concat([
    jpeg.subarray(0, 2),
    ...kept.slice(0, split),
    ours,
    ...kept.slice(split),
    jpeg.subarray(at),
  ]);
}

interface RiffChunk {
  fourcc: string;
  data: Buffer;
}

function riffChunk({ fourcc, data }: RiffChunk): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, "latin1");
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

function readChunks(webp: Buffer): RiffChunk[] | null {
  const chunks: RiffChunk[] = [];
  let offset = 12;
  while (offset + 8 <= webp.length) {
    const size = webp.readUInt32LE(offset + 4);
    const end = offset + 8 + size;
    if (end > webp.length) return null;
    chunks.push({
      fourcc: webp.toString("latin1", offset, offset + 4),
      data: webp.subarray(offset + 8, end),
    });
    offset = end + (size % 2);
  }
  return chunks;
}

const VP8X_XMP = 0x04;
const VP8X_ALPHA = 0x10;

/** The VP8X header a simple (VP8 or VP8L) WebP needs before it may carry metadata. */
function extendedHeader(image: RiffChunk): RiffChunk | null {
  let width: number;
  let height: number;
  let flags = VP8X_XMP;
  const data = image.data;
  if (image.fourcc === "VP8 " && data.length >= 10) {
    // Frame tag (3) · start code 9D 01 2A · 14-bit width · 14-bit height.
    width = data.readUInt16LE(6) & 0x3fff;
    height = data.readUInt16LE(8) & 0x3fff;
  } else if (image.fourcc === "VP8L" && data.length >= 5 && data[0] === 0x2f) {
    // Signature 2F · 14 bits width-1 · 14 bits height-1 · 1 bit alpha used.
    const bits = data.readUInt32LE(1);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
    if ((bits >>> 28) & 1) flags |= VP8X_ALPHA;
  } else return null;
  const header = Buffer.alloc(10);
  header[0] = flags;
  header.writeUIntLE(width - 1, 4, 3);
  header.writeUIntLE(height - 1, 7, 3);
  return { fourcc: "VP8X", data: header };
}

/** The WebP with an `XMP ` chunk (extended format; a simple file gains its VP8X header). */
export function withWebpXmp(webp: Buffer, xmp: string): Buffer | null {
  if (webp.toString("latin1", 0, 4) !== "RIFF" || webp.toString("latin1", 8, 12) !== "WEBP")
    return null;
  const chunks = readChunks(webp);
  const first = chunks?.[0];
  if (!chunks || !first) return null;
  let body: RiffChunk[];
  if (first.fourcc === "VP8X") {
    const header = Buffer.from(first.data);
    header[0] = (header[0] ?? 0) | VP8X_XMP;
    body = [
      { fourcc: "VP8X", data: header },
      ...chunks.slice(1).filter((c) => c.fourcc !== "XMP "),
    ];
  } else {
    const header = extendedHeader(first);
    if (!header) return null;
    body = [header, ...chunks];
  }
  // Metadata chunks come after the image data.
  const payload = Buffer.concat([
    ...body.map(riffChunk),
    riffChunk({ fourcc: "XMP ", data: Buffer.from(xmp, "utf8") }),
  ]);
  const head = Buffer.alloc(12);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(4 + payload.length, 4);
  head.write("WEBP", 8, "latin1");
  return Buffer.concat([head, payload]);
}
