/**
 * Image processing for the local provider's processing nodes, done for real with sharp:
 * crop, resize, levels, reframe and upscale here; the effects live in effects.ts.
 */
import {
  applyLevels,
  cropRect,
  fitAspectInside,
  levelsProblem,
  RESIZE_FITS,
  reframePlan,
  resizePlan,
} from "@atelier/core";
import { backgroundRemover, stylizer } from "./effects.ts";
import { aspectRatio, LocalMediaError, num, oneOf, type Params } from "./params.ts";
import {
  checkOutputSize,
  finish,
  flat,
  fromRaw,
  type OpenedImage,
  openImage,
  outputFormat,
  type ProcessedImage,
  toRaw,
} from "./raster.ts";
import { vectorize } from "./vectorize.ts";

/** Operation ids, named like the catalogue's processing node types. */
export const IMAGE_OPERATIONS = [
  "crop",
  "resize",
  "levels",
  "reframe",
  "upscaler",
  "bg-remover",
  "vectorize",
  "stylizer",
] as const;
export type ImageOperation = (typeof IMAGE_OPERATIONS)[number];

// Short verbs some callers use for the same operations.
const ALIASES: Record<string, ImageOperation> = {
  upscale: "upscaler",
  "magnific-upscaler": "upscaler",
  stylize: "stylizer",
  "remove-background": "bg-remover",
};

type Operation = (opened: OpenedImage, params: Params) => Promise<ProcessedImage>;

/**
 * Crop — `left`, `top`, `width`, `height` as fractions 0–1 of the image (the catalogue's
 * params; `unit: "pixel"` takes pixels instead); optional `aspectRatio` ("16:9") then takes
 * the largest centred rectangle of that ratio inside the selection. The pixel rectangle is
 * core's `cropRect`, as the browser's crop preview shows it.
 */
const crop: Operation = async (opened, params) => {
  const { width: W, height: H } = opened;
  const pixels = oneOf("crop", params, "unit", ["fraction", "pixel"], "fraction") === "pixel";
  const rule = (max: number, min: number, fallback: number) =>
    pixels ? { min, max, fallback: fallback * max, integer: true } : { min, max: 1, fallback };
  const left = num("crop", params, "left", rule(W - 1, 0, 0));
  const top = num("crop", params, "top", rule(H - 1, 0, 0));
  const width = num(
    "crop",
    params,
    "width",
    pixels ? rule(W, 1, 1) : { min: 0.01, max: 1, fallback: 1 },
  );
  const height = num(
    "crop",
    params,
    "height",
    pixels ? rule(H, 1, 1) : { min: 0.01, max: 1, fallback: 1 },
  );
  const eps = pixels ? 0 : 1e-6;
  if (left + width > (pixels ? W : 1) + eps || top + height > (pixels ? H : 1) + eps) {
    throw new LocalMediaError(
      `crop: the rectangle runs off the image (left + width and top + height must be at most ${pixels ? `${W} and ${H}` : "1"})`,
    );
  }
  let rect = pixels
    ? { x: left, y: top, width: Math.min(width, W - left), height: Math.min(height, H - top) }
    : cropRect(opened, { left, top, width, height });
  if (params.aspectRatio !== undefined && params.aspectRatio !== null && params.aspectRatio !== "")
    rect = fitAspectInside(rect, aspectRatio("crop", params.aspectRatio));
  const region = { left: rect.x, top: rect.y, width: rect.width, height: rect.height };
  return finish(fromRaw(opened.raw).extract(region), outputFormat("crop", params, opened.format));
};

/**
 * Resize — `width` and/or `height` in pixels (1–8192), `fit` as sharp's (default cover).
 * Core's `resizePlan` decides every pixel (the browser preview draws the same plan): the
 * source region is scaled into the target rectangle, then padded for `contain`.
 */
const resize: Operation = async (opened, params) => {
  const rule = { min: 1, max: 8192, integer: true, fallback: 0 };
  const width = num("resize", params, "width", rule) || undefined;
  const height = num("resize", params, "height", rule) || undefined;
  if (!width && !height) throw new LocalMediaError('resize: "width" or "height" is required');
  const fit = oneOf("resize", params, "fit", RESIZE_FITS, "cover");
  const { output, source, target } = resizePlan(opened, { width, height }, fit);
  checkOutputSize("resize", output.width, output.height);
  let image = fromRaw(opened.raw)
    .extract({ left: source.x, top: source.y, width: source.width, height: source.height })
    .resize(target.width, target.height, { fit: "fill", kernel: "lanczos3" });
  if (target.width !== output.width || target.height !== output.height) {
    // "contain" pads: transparent when the image has alpha, black otherwise.
    const background = opened.hasAlpha ? { r: 0, g: 0, b: 0, alpha: 0 } : { r: 0, g: 0, b: 0 };
    image = image.extend({
      top: target.y,
      left: target.x,
      bottom: output.height - target.y - target.height,
      right: output.width - target.x - target.width,
      background,
    });
  }
  return finish(image, outputFormat("resize", params, opened.format));
};

/**
 * Levels — input `blackPoint` (0–254) and `whitePoint` (1–255) are stretched to 0 and 255,
 * then midtones are raised by `gamma` (0.1–3, >1 brightens: out = in^(1/gamma)), then
 * `saturation` (0–2) scales colourfulness around Rec. 709 luma. Core's `applyLevels` does
 * the pixels, the same function the browser preview runs.
 */
const levels: Operation = async (opened, params) => {
  const values = {
    blackPoint: num("levels", params, "blackPoint", { min: 0, max: 254, fallback: 0 }),
    whitePoint: num("levels", params, "whitePoint", { min: 1, max: 255, fallback: 255 }),
    gamma: num("levels", params, "gamma", { min: 0.1, max: 3, fallback: 1 }),
    saturation: num("levels", params, "saturation", { min: 0, max: 2, fallback: 1 }),
  };
  const problem = levelsProblem(values);
  if (problem) throw new LocalMediaError(`levels: ${problem}`);
  const data = Buffer.from(opened.raw.data);
  applyLevels(data, opened.raw.channels, values);
  return finish(fromRaw({ ...opened.raw, data }), outputFormat("levels", params, opened.format));
};

/**
 * Reframe — change the aspect ratio to `aspectRatio` ("16:9", required). `mode: "extend"`
 * (default) keeps every pixel and fills the new margins with a blurred, dimmed copy of the
 * picture (a stand-in for outpainting); `mode: "crop"` takes the largest centred region.
 * The frame is core's `reframePlan`, as the browser preview draws it.
 */
const reframe: Operation = async (opened, params) => {
  const ratio = aspectRatio("reframe", params.aspectRatio);
  const mode = oneOf("reframe", params, "mode", ["extend", "crop"] as const, "extend");
  const format = outputFormat("reframe", params, opened.format);
  const plan = reframePlan(opened, ratio, mode);
  const { output, rect } = plan;
  if (mode === "crop") {
    const region = { left: rect.x, top: rect.y, width: rect.width, height: rect.height };
    return finish(fromRaw(opened.raw).extract(region), format);
  }
  checkOutputSize("reframe", output.width, output.height);
  const backdrop = await toRaw(
    fromRaw(opened.raw)
      .resize(output.width, output.height, { fit: "cover", kernel: "lanczos3" })
      .blur(plan.blurSigma)
      .modulate({ brightness: plan.dim }),
    opened.hasAlpha,
  );
  const { raw } = opened;
  const channels = raw.channels as 3 | 4;
  const overlay = { width: raw.width, height: raw.height, channels };
  const image = fromRaw(backdrop).composite([
    { input: raw.data, raw: overlay, left: rect.x, top: rect.y },
  ]);
  return finish(opened.hasAlpha ? image : await flat(image), format);
};

/**
 * Upscale — by `upscaleFactor` (1–16, default 2) or Magnific's `scaleFactor` ("2x"…"16x"),
 * with a Lanczos kernel and a light sharpen.
 */
const upscaler: Operation = async (opened, params) => {
  const named = params.scaleFactor;
  const factor =
    typeof named === "string" && params.upscaleFactor === undefined
      ? num("upscaler", { scaleFactor: named.replace(/x$/i, "") }, "scaleFactor", {
          min: 1,
          max: 16,
        })
      : num("upscaler", params, "upscaleFactor", { min: 1, max: 16, fallback: 2 });
  const w = Math.round(opened.width * factor);
  const h = Math.round(opened.height * factor);
  checkOutputSize("upscaler", w, h);
  const image = fromRaw(opened.raw)
    .resize(w, h, { fit: "fill", kernel: "lanczos3" })
    .sharpen({ sigma: 0.6 });
  return finish(image, outputFormat("upscaler", params, opened.format));
};

const OPERATIONS: Record<ImageOperation, Operation> = {
  crop,
  resize,
  levels,
  reframe,
  upscaler,
  "bg-remover": backgroundRemover,
  vectorize,
  stylizer,
};

/**
 * Runs one processing operation on an image (any format sharp reads) and returns the encoded
 * result. Params are those of the catalogue node of the same name (see each operation's
 * notes); every operation also takes `outputFormat` (png | jpeg | webp; default: the input's
 * own format, else PNG). Throws LocalMediaError for an unknown operation, bad params or an
 * unreadable input.
 */
export async function processImage(
  operation: ImageOperation | string,
  input: Uint8Array,
  params: Params = {},
): Promise<ProcessedImage> {
  const id = (ALIASES[operation] ?? operation) as ImageOperation;
  const run = OPERATIONS[id];
  if (!Object.hasOwn(OPERATIONS, id) || !run) {
    throw new LocalMediaError(
      `Unknown image operation "${operation}" (expected one of ${IMAGE_OPERATIONS.join(", ")})`,
    );
  }
  return run(await openImage(id, input), params);
}
