/**
 * Image processing for the local provider's processing nodes, done for real with sharp:
 * crop, resize, levels, reframe and upscale here; the effects live in effects.ts.
 */
import { backgroundRemover, stylizer } from "./effects.ts";
import { aspectRatio, LocalMediaError, num, oneOf, type Params } from "./params.ts";
import {
  applyLut,
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
 * the largest centred rectangle of that ratio inside the selection.
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
  // Rounding can land a fraction like 0.999 on the edge; keep at least one pixel inside.
  let x = pixels ? left : Math.min(W - 1, Math.round(left * W));
  let y = pixels ? top : Math.min(H - 1, Math.round(top * H));
  let w = pixels ? width : Math.round(width * W);
  let h = pixels ? height : Math.round(height * H);
  const eps = pixels ? 0 : 1e-6;
  if (left + width > (pixels ? W : 1) + eps || top + height > (pixels ? H : 1) + eps) {
    throw new LocalMediaError(
      `crop: the rectangle runs off the image (left + width and top + height must be at most ${pixels ? `${W} and ${H}` : "1"})`,
    );
  }
  w = Math.max(1, Math.min(w, W - x));
  h = Math.max(1, Math.min(h, H - y));
  if (
    params.aspectRatio !== undefined &&
    params.aspectRatio !== null &&
    params.aspectRatio !== ""
  ) {
    const ratio = aspectRatio("crop", params.aspectRatio);
    const fitW = Math.max(1, Math.min(w, Math.round(h * ratio)));
    const fitH = Math.max(1, Math.min(h, Math.round(fitW / ratio)));
    x += Math.floor((w - fitW) / 2);
    y += Math.floor((h - fitH) / 2);
    w = fitW;
    h = fitH;
  }
  const image = fromRaw(opened.raw).extract({ left: x, top: y, width: w, height: h });
  return finish(image, outputFormat("crop", params, opened.format));
};

/** Resize — `width` and/or `height` in pixels (1–8192), `fit` as sharp's (default cover). */
const resize: Operation = async (opened, params) => {
  const rule = { min: 1, max: 8192, integer: true, fallback: 0 };
  const width = num("resize", params, "width", rule) || undefined;
  const height = num("resize", params, "height", rule) || undefined;
  if (!width && !height) throw new LocalMediaError('resize: "width" or "height" is required');
  const fit = oneOf(
    "resize",
    params,
    "fit",
    ["cover", "contain", "fill", "inside", "outside"] as const,
    "cover",
  );
  // "contain" pads: transparent when the image has alpha, black otherwise.
  const background = opened.hasAlpha ? { r: 0, g: 0, b: 0, alpha: 0 } : "#000";
  const image = fromRaw(opened.raw).resize(width, height, { fit, kernel: "lanczos3", background });
  return finish(image, outputFormat("resize", params, opened.format));
};

/**
 * Levels — input `blackPoint` (0–254) and `whitePoint` (1–255) are stretched to 0 and 255,
 * then midtones are raised by `gamma` (0.1–3, >1 brightens: out = in^(1/gamma)), then
 * `saturation` (0–2) scales colourfulness.
 */
const levels: Operation = async (opened, params) => {
  const black = num("levels", params, "blackPoint", { min: 0, max: 254, fallback: 0 });
  const white = num("levels", params, "whitePoint", { min: 1, max: 255, fallback: 255 });
  const gamma = num("levels", params, "gamma", { min: 0.1, max: 3, fallback: 1 });
  const saturation = num("levels", params, "saturation", { min: 0, max: 2, fallback: 1 });
  if (black >= white) {
    throw new LocalMediaError(
      `levels: "blackPoint" (${black}) must be below "whitePoint" (${white})`,
    );
  }
  // sharp's gamma() only acts around a resize, so the curve is applied as a lookup table.
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v - black) / (white - black)));
    lut[v] = Math.round(255 * t ** (1 / gamma));
  }
  let image = fromRaw(applyLut(opened.raw, lut));
  if (saturation !== 1) image = image.modulate({ saturation });
  return finish(image, outputFormat("levels", params, opened.format));
};

/**
 * Reframe — change the aspect ratio to `aspectRatio` ("16:9", required). `mode: "extend"`
 * (default) keeps every pixel and fills the new margins with a blurred, dimmed copy of the
 * picture (a stand-in for outpainting); `mode: "crop"` takes the largest centred region.
 */
const reframe: Operation = async (opened, params) => {
  const ratio = aspectRatio("reframe", params.aspectRatio);
  const mode = oneOf("reframe", params, "mode", ["extend", "crop"] as const, "extend");
  const { width: W, height: H } = opened;
  const format = outputFormat("reframe", params, opened.format);
  const wider = ratio > W / H;
  if (mode === "crop") {
    const w = wider ? W : Math.max(1, Math.round(H * ratio));
    const h = wider ? Math.max(1, Math.round(W / ratio)) : H;
    const region = {
      left: Math.floor((W - w) / 2),
      top: Math.floor((H - h) / 2),
      width: w,
      height: h,
    };
    return finish(fromRaw(opened.raw).extract(region), format);
  }
  const w = wider ? Math.round(H * ratio) : W;
  const h = wider ? H : Math.round(W / ratio);
  checkOutputSize("reframe", w, h);
  const sigma = Math.max(2, Math.max(w, h) / 40);
  const backdrop = await toRaw(
    fromRaw(opened.raw)
      .resize(w, h, { fit: "cover", kernel: "lanczos3" })
      .blur(sigma)
      .modulate({ brightness: 0.8 }),
    opened.hasAlpha,
  );
  const { raw } = opened;
  const channels = raw.channels as 3 | 4;
  const overlay = { width: raw.width, height: raw.height, channels };
  const left = Math.floor((w - W) / 2);
  const top = Math.floor((h - H) / 2);
  const image = fromRaw(backdrop).composite([{ input: raw.data, raw: overlay, left, top }]);
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
