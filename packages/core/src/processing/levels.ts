/**
 * The Levels node's colour mapping, shared by the browser preview (canvas ImageData) and the
 * server (sharp's raw pixels), so both produce the same bytes from the same pixels.
 */

export interface LevelsParams {
  /** Input value mapped to 0 (0–254). */
  blackPoint: number;
  /** Input value mapped to 255 (1–255). */
  whitePoint: number;
  /** Midtone curve: out = in^(1/gamma); above 1 brightens. */
  gamma: number;
  /** 0 = grey, 1 = unchanged, 2 = twice as colourful. */
  saturation: number;
}

export const DEFAULT_LEVELS: LevelsParams = {
  blackPoint: 0,
  whitePoint: 255,
  gamma: 1,
  saturation: 1,
};

/** Why these levels cannot be applied, or null. */
export function levelsProblem(levels: LevelsParams): string | null {
  return levels.blackPoint >= levels.whitePoint
    ? `"blackPoint" (${levels.blackPoint}) must be below "whitePoint" (${levels.whitePoint})`
    : null;
}

/** Black/white points stretched to 0–255, then the gamma curve, as a 256-entry table. */
export function levelsLut(levels: Pick<LevelsParams, "blackPoint" | "whitePoint" | "gamma">) {
  const { blackPoint: black, whitePoint: white, gamma } = levels;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v - black) / (white - black)));
    lut[v] = Math.round(255 * t ** (1 / gamma));
  }
  return lut;
}

// Rec. 709 luma weights, as CSS's saturate() uses: greys stay grey, brightness holds.
const KR = 0.2126;
const KG = 0.7152;
const KB = 0.0722;

const byte = (value: number) => (value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value));

/**
 * Applies levels in place to interleaved 8-bit pixels with `channels` per pixel (1–4; the
 * last of 2 or 4 is alpha and left alone). Saturation only acts on RGB pixels.
 */
export function applyLevels(
  pixels: Uint8Array | Uint8ClampedArray,
  channels: number,
  levels: LevelsParams,
): void {
  const lut = levelsLut(levels);
  const colour = channels === 2 || channels === 4 ? channels - 1 : channels;
  const s = levels.saturation;
  const saturate = colour === 3 && s !== 1;
  for (let i = 0; i < pixels.length; i += channels) {
    if (!saturate) {
      for (let c = 0; c < colour; c++) pixels[i + c] = lut[pixels[i + c] as number] as number;
      continue;
    }
    const r = lut[pixels[i] as number] as number;
    const g = lut[pixels[i + 1] as number] as number;
    const b = lut[pixels[i + 2] as number] as number;
    const y = KR * r + KG * g + KB * b;
    pixels[i] = byte(y + s * (r - y));
    pixels[i + 1] = byte(y + s * (g - y));
    pixels[i + 2] = byte(y + s * (b - y));
  }
}
