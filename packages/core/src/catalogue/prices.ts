/**
 * What a run costs, by the endpoint that runs it: the providers' published prices in US
 * dollars (reference/catalogue, cited per rule). An endpoint with no published price is
 * unknown (null) — never a guess. Work this server does itself (`local/…`) or the operator's own
 * GPU does (`comfyui/…`) costs nothing.
 */

type Params = Record<string, unknown>;

/** One endpoint's published price: the charge of one run with these parameters. */
export interface PriceRule {
  /** How the price is counted, for people ("per second of video, audio on/off"). */
  unit: string;
  /** Where the price was published (the catalogue's source key). */
  source: string;
  charge(params: Params): number;
}

/** A duration parameter ("8s", 8) in seconds; the catalogue's default when unset. */
function secondsOf(params: Params, fallback: number): number {
  const value = params.duration;
  const seconds = typeof value === "number" ? value : Number.parseFloat(String(value ?? ""));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** Audio is on unless turned off (Veo's `generate_audio` defaults to true). */
const withAudio = (params: Params) => params.generateAudio !== false;

/** Per second of video, one rate with audio and one without. */
function perVideoSecond(source: string, rate: (params: Params) => number): PriceRule {
  return {
    unit: "per second of video",
    source,
    charge: (params) => roundUsd(secondsOf(params, 8) * rate(params)),
  };
}

const roundUsd = (usd: number) => Math.round(usd * 10_000) / 10_000;

const VEO3 = perVideoSecond("FAL-VEO3", (p) => (withAudio(p) ? 0.4 : 0.2));
const VEO3_FAST = perVideoSecond("FAL-VEO3F", (p) => (withAudio(p) ? 0.15 : 0.1));
const VEO31_FAST_FLF = perVideoSecond("FAL-V31FLF", (p) =>
  p.resolution === "4k" ? (withAudio(p) ? 0.35 : 0.3) : withAudio(p) ? 0.15 : 0.1,
);

/** Published prices by endpoint id (catalogue video.md §3, §4). */
export const PRICE_RULES: Readonly<Record<string, PriceRule>> = {
  "fal-ai/veo3": VEO3,
  "fal-ai/veo3/image-to-video": VEO3,
  "fal-ai/veo3/fast": VEO3_FAST,
  "fal-ai/veo3/fast/image-to-video": VEO3_FAST,
  "fal-ai/veo3.1/fast/first-last-frame-to-video": VEO31_FAST_FLF,
};

/** The cost of one run at `endpoint` in US dollars, or null when no price is published. */
export function priceOf(endpoint: string, params: Params): number | null {
  if (endpoint.startsWith("local/") || endpoint.startsWith("comfyui/")) return 0;
  const rule = PRICE_RULES[endpoint];
  return rule ? rule.charge(params) : null;
}
