/**
 * Procedural still images for image nodes: a seeded abstract composition with the prompt's
 * first words as a caption, encoded by sharp as a real PNG, JPEG or WebP.
 */
import sharp, { type Sharp } from "sharp";
import { dimension, LocalMediaError } from "./params.ts";
import { rngFrom } from "./seed.ts";
import { artLayers, captionLayer, svgDocument } from "./svg.ts";

/** Raster formats the local provider writes. */
export type ImageFormat = "png" | "jpeg" | "webp";

/** Largest side we render; beyond it a placeholder costs memory for nothing. */
export const MAX_IMAGE_SIDE = 4096;

/** MIME type per raster format. */
export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

export interface RenderImageOptions {
  prompt: string;
  seed: number;
  width: number;
  height: number;
  /** Default png. */
  format?: ImageFormat;
}

/** The procedural picture as an SVG document (also the first frame of local videos). */
export function imageSvg(prompt: string, seed: number, width: number, height: number): Buffer {
  // Prompt and seed both steer the art, so editing either gives a visibly new picture.
  const rng = rngFrom("image", prompt, seed);
  return svgDocument(
    width,
    height,
    artLayers(rng, width, height) + captionLayer(prompt, width, height),
  );
}

/** Encodes a sharp pipeline in one of our raster formats, with fixed settings for determinism. */
export function encode(pipeline: Sharp, format: ImageFormat): Promise<Buffer> {
  switch (format) {
    case "png":
      return pipeline.png({ compressionLevel: 6 }).toBuffer();
    case "jpeg":
      return pipeline.jpeg({ quality: 88, mozjpeg: true }).toBuffer();
    case "webp":
      return pipeline.webp({ quality: 85 }).toBuffer();
  }
}

/**
 * Renders a deterministic image (same inputs → same bytes) of `width`×`height` pixels.
 * Throws LocalMediaError for sizes outside 1…4096 or an unknown format.
 */
export async function renderImage(options: RenderImageOptions): Promise<Buffer> {
  const width = dimension("image", "width", options.width, MAX_IMAGE_SIDE);
  const height = dimension("image", "height", options.height, MAX_IMAGE_SIDE);
  const format = options.format ?? "png";
  if (!(format in IMAGE_CONTENT_TYPES)) {
    throw new LocalMediaError(`image: "format" must be one of png, jpeg, webp (got ${format})`);
  }
  const svg = imageSvg(options.prompt ?? "", options.seed, width, height);
  // Opaque output: JPEG has no alpha, and a flat RGB PNG is smaller and simpler to consume.
  const pipeline = sharp(svg, { density: 72 }).flatten({ background: "#000" });
  return encode(pipeline, format);
}
