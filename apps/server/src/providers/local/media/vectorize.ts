/**
 * Vectorize without a model: trace an image into an SVG of flat colour cells.
 */
import { num, type Params } from "./params.ts";
import { fromRaw, type OpenedImage, type ProcessedImage, toRaw } from "./raster.ts";

/**
 * Vectorize — traces the image into an SVG of flat-colour cells: downsampled to `detail`
 * cells on its long side (8–256, default 64), colours posterised to `colors` levels per
 * channel (2–16, default 6), runs of one colour merged, one `<path>` per colour. The SVG
 * keeps the input's pixel size; mostly-transparent cells are left out.
 */
export async function vectorize(opened: OpenedImage, params: Params): Promise<ProcessedImage> {
  const detail = num("vectorize", params, "detail", {
    min: 8,
    max: 256,
    integer: true,
    fallback: 64,
  });
  const levels = num("vectorize", params, "colors", {
    min: 2,
    max: 16,
    integer: true,
    fallback: 6,
  });
  const { width: W, height: H } = opened;
  const scale = Math.min(1, detail / Math.max(W, H));
  const cols = Math.max(1, Math.round(W * scale));
  const rows = Math.max(1, Math.round(H * scale));
  const small = await toRaw(fromRaw(opened.raw).resize(cols, rows, { fit: "fill" }), true);
  const q = (v: number) => Math.round((Math.round((v / 255) * (levels - 1)) * 255) / (levels - 1));
  const hex = (v: number) => q(v).toString(16).padStart(2, "0");
  const paths = new Map<string, string[]>();
  for (let y = 0; y < rows; y++) {
    let x = 0;
    while (x < cols) {
      const colourAt = (cx: number) => {
        const i = (y * cols + cx) * 4;
        const d = small.data;
        if ((d[i + 3] ?? 0) < 128) return null;
        return `#${hex(d[i] ?? 0)}${hex(d[i + 1] ?? 0)}${hex(d[i + 2] ?? 0)}`;
      };
      const colour = colourAt(x);
      let end = x + 1;
      while (end < cols && colourAt(end) === colour) end++;
      if (colour) {
        const list = paths.get(colour) ?? [];
        list.push(`M${x} ${y}h${end - x}v1h-${end - x}z`);
        paths.set(colour, list);
      }
      x = end;
    }
  }
  const body = [...paths].map(([fill, d]) => `<path fill="${fill}" d="${d.join("")}"/>`).join("\n");
  const svg = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${cols} ${rows}" preserveAspectRatio="none" shape-rendering="crispEdges">`,
    body,
    "</svg>",
    "",
  ].join("\n");
  return {
    bytes: Buffer.from(svg),
    contentType: "image/svg+xml",
    format: "svg",
    width: W,
    height: H,
  };
}
