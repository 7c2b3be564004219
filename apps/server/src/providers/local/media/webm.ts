/**
 * A minimal WebM (Matroska) muxer for one VP8 video track of keyframes: EBML header, Info,
 * Tracks, Cues and one Cluster per second. Every browser with WebM support plays it.
 */

/** One encoded VP8 frame (a keyframe) and when it is shown, in milliseconds. */
export interface WebmFrame {
  vp8: Uint8Array;
  timestampMs: number;
}

export interface WebmOptions {
  width: number;
  height: number;
  fps: number;
  durationMs: number;
  frames: WebmFrame[];
}

// Element ids carry their own length marker bits, so they are written as-is, big-endian.
function idBytes(id: number): Buffer {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes);
}

// Element sizes are EBML variable-length integers: the length is marked by the first set bit.
function sizeBytes(size: number): Buffer {
  let length = 1;
  while (length < 8 && size >= 2 ** (7 * length) - 1) length++;
  const out = Buffer.alloc(length);
  let v = size;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0] = (out[0] ?? 0) | (0x80 >> (length - 1));
  return out;
}

function element(id: number, ...children: Uint8Array[]): Buffer {
  const payload = Buffer.concat(children);
  return Buffer.concat([idBytes(id), sizeBytes(payload.length), payload]);
}

// Unsigned integer element; `width` fixes its byte length (used where sizes must not vary).
function uint(id: number, value: number, width?: number): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  while (bytes.length < (width ?? 1)) bytes.unshift(0);
  return element(id, Buffer.from(bytes));
}

function float(id: number, value: number): Buffer {
  const payload = Buffer.alloc(8);
  payload.writeDoubleBE(value);
  return element(id, payload);
}

function string(id: number, value: string): Buffer {
  return element(id, Buffer.from(value, "utf8"));
}

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Info: 0x1549a966,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  Video: 0xe0,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTrackPositions: 0xb7,
  Cluster: 0x1f43b675,
  SimpleBlock: 0xa3,
} as const;

/** Muxes VP8 keyframes into a WebM file. Frames must be in display order. */
export function muxWebm(options: WebmOptions): Buffer {
  const header = element(
    ID.EBML,
    uint(0x4286, 1), // EBMLVersion
    uint(0x42f7, 1), // EBMLReadVersion
    uint(0x42f2, 4), // EBMLMaxIDLength
    uint(0x42f3, 8), // EBMLMaxSizeLength
    string(0x4282, "webm"), // DocType
    uint(0x4287, 2), // DocTypeVersion
    uint(0x4285, 2), // DocTypeReadVersion
  );
  const info = element(
    ID.Info,
    uint(0x2ad7b1, 1_000_000), // TimecodeScale: timestamps in milliseconds
    float(0x4489, options.durationMs), // Duration
    string(0x4d80, "Atelier local provider"), // MuxingApp
    string(0x5741, "Atelier local provider"), // WritingApp
  );
  const tracks = element(
    ID.Tracks,
    element(
      ID.TrackEntry,
      uint(0xd7, 1), // TrackNumber
      uint(0x73c5, 1), // TrackUID
      uint(0x83, 1), // TrackType: video
      uint(0x9c, 0), // FlagLacing
      string(0x86, "V_VP8"), // CodecID
      uint(0x23e383, Math.round(1e9 / options.fps)), // DefaultDuration (ns)
      element(ID.Video, uint(0xb0, options.width), uint(0xba, options.height)),
    ),
  );
  // One cluster per second keeps block timestamps well inside their signed 16-bit range.
  const groups = new Map<number, WebmFrame[]>();
  for (const frame of options.frames) {
    const start = Math.floor(frame.timestampMs / 1000) * 1000;
    groups.set(start, [...(groups.get(start) ?? []), frame]);
  }
  const clusters = [...groups].map(([start, frames]) => ({
    start,
    bytes: element(
      ID.Cluster,
      uint(0xe7, start), // Timecode
      ...frames.map((frame) => {
        const head = Buffer.from([0x81, 0, 0, 0x80]); // track 1, relative time, keyframe
        head.writeInt16BE(frame.timestampMs - start, 1);
        return element(ID.SimpleBlock, head, frame.vp8);
      }),
    ),
  }));
  // Cues let players seek without scanning. Positions are written 8 bytes wide so the cues'
  // own size is known before the positions that depend on it.
  const cues = (offset: number) => {
    let position = offset;
    return element(
      ID.Cues,
      ...clusters.map((cluster) => {
        const point = element(
          ID.CuePoint,
          uint(0xb3, cluster.start), // CueTime
          element(ID.CueTrackPositions, uint(0xf7, 1), uint(0xf1, position, 8)),
        );
        position += cluster.bytes.length;
        return point;
      }),
    );
  };
  const before = info.length + tracks.length;
  const cueBytes = cues(before + cues(0).length);
  const segment = element(ID.Segment, info, tracks, cueBytes, ...clusters.map((c) => c.bytes));
  return Buffer.concat([header, segment]);
}

/** The VP8 bitstream inside a simple lossy WebP file (its `VP8 ` chunk). */
export function vp8FromWebp(webp: Uint8Array): Uint8Array {
  const bytes = Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength);
  if (bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WEBP") {
    throw new Error("vp8FromWebp: not a WebP file");
  }
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const type = bytes.toString("ascii", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (type === "VP8 ") return bytes.subarray(offset + 8, offset + 8 + size);
    offset += 8 + size + (size % 2); // chunks are padded to even sizes
  }
  throw new Error("vp8FromWebp: no lossy VP8 chunk (lossless or animated WebP?)");
}
