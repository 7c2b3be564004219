/**
 * Shared plumbing for image processing: decoding inputs, raw pixel access and encoding
 * results in a format the caller can store.
 */
import sharp, { type Sharp } from "sharp";
import { encode, IMAGE_CONTENT_TYPES, type ImageFormat } from "./image.ts";
import { LocalMediaError, oneOf, type Params } from "./params.ts";

/** Largest output side any operation may produce. */
export const MAX_OUTPUT_SIDE = 16384;
/** Largest output pixel count any operation may produce (64 megapixels). */
export const MAX_OUTPUT_PIXELS = 64 * 1024 * 1024;

/** A processed image (or SVG) with what a media record needs to know about it. */
export interface ProcessedImage {
  bytes: Buffer;
  contentType: string;
  format: ImageFormat | "svg";
  width: number;
  height: number;
}

/** Decoded pixels: interleaved 8-bit channels, row-major. */
export interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** A decoded input: a pipeline over its upright pixels, plus what we learned decoding it. */
export interface OpenedImage {
  raw: Raw;
  width: number;
  height: number;
  hasAlpha: boolean;
  /** sharp's name for the input's format (png, jpeg, webp, gif, svg…). */
  format: string;
}

/**
 * Decodes an input image once, upright (EXIF orientation applied), into raw pixels. Working
 * from raw means later steps never depend on sharp's call-order rules for orientation.
 */
export async function openImage(where: string, input: Uint8Array): Promise<OpenedImage> {
  try {
    const meta = await sharp(input).metadata();
    const { data, info } = await sharp(input)
      .autoOrient()
      .toColourspace("srgb") // greyscale inputs become RGB: every step sees 3 or 4 channels
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      raw: { data, width: info.width, height: info.height, channels: info.channels },
      width: info.width,
      height: info.height,
      hasAlpha: info.channels === 4,
      format: meta.format ?? "unknown",
    };
  } catch {
    throw new LocalMediaError(`${where}: the input is not a readable image`);
  }
}

/** Raw RGB or RGBA pixels of a pipeline's result. */
export async function toRaw(image: Sharp, alpha: boolean): Promise<Raw> {
  const pipeline = alpha ? image.ensureAlpha() : image.removeAlpha();
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A sharp pipeline over raw pixels. */
export function fromRaw(raw: Raw): Sharp {
  return sharp(raw.data, {
    raw: { width: raw.width, height: raw.height, channels: raw.channels as 1 | 2 | 3 | 4 },
  });
}

/** Applies a 256-entry lookup table to the colour channels (alpha is left alone). */
export function applyLut(raw: Raw, lut: Uint8Array): Raw {
  const data = Buffer.from(raw.data);
  const colour = raw.channels === 4 || raw.channels === 2 ? raw.channels - 1 : raw.channels;
  for (let i = 0; i < data.length; i += raw.channels) {
    for (let c = 0; c < colour; c++) data[i + c] = lut[data[i + c] ?? 0] ?? 0;
  }
  return { ...raw, data };
}

/**
 * Picks the output format: `outputFormat` when given, else the input's own format when we
 * can write it, else PNG. `needsAlpha` rules out JPEG.
 */
export function outputFormat(
  where: string,
  params: Params,
  inputFormat: string,
  needsAlpha = false,
): ImageFormat {
  const formats = needsAlpha ? (["png", "webp"] as const) : (["png", "jpeg", "webp"] as const);
  const fallback = (formats as readonly string[]).includes(inputFormat)
    ? (inputFormat as ImageFormat)
    : "png";
  return oneOf<ImageFormat>(where, params, "outputFormat", formats, fallback);
}

/** Encodes a pipeline and reports the size it came out at. */
export async function finish(image: Sharp, format: ImageFormat): Promise<ProcessedImage> {
  const bytes = await encode(image, format);
  const meta = await sharp(bytes).metadata();
  return {
    bytes,
    contentType: IMAGE_CONTENT_TYPES[format],
    format,
    width: meta.width ?? 0,
    height: meta.height ?? 0,
  };
}

/** Drops alpha (composite() always yields RGBA) so opaque inputs stay opaque. */
export async function flat(image: Sharp): Promise<Sharp> {
  return fromRaw(await toRaw(fromRaw(await toRaw(image, true)), false));
}

/** Checks an operation's output against MAX_OUTPUT_SIDE and MAX_OUTPUT_PIXELS. */
export function checkOutputSize(where: string, width: number, height: number): void {
  if (width > MAX_OUTPUT_SIDE || height > MAX_OUTPUT_SIDE || width * height > MAX_OUTPUT_PIXELS) {
    throw new LocalMediaError(
      `${where}: the result would be ${width}×${height}, over the limit of ${MAX_OUTPUT_SIDE} pixels a side and 64 megapixels`,
    );
  }
}
