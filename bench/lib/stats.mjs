/**
 * Figures from repeated measurements: median and spread, and interleaved pairs so that a
 * slow moment on the shared machine hits baseline and candidate alike.
 */

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

export const median = (values) => quantile(values, 0.5);

/** Median, quartiles and range of one figure; `spread` is the interquartile range ÷ median. */
export function summarize(values) {
  const clean = values.filter((value) => Number.isFinite(value));
  const mid = median(clean);
  const p25 = quantile(clean, 0.25);
  const p75 = quantile(clean, 0.75);
  return {
    n: clean.length,
    median: round(mid),
    p25: round(p25),
    p75: round(p75),
    min: round(Math.min(...clean)),
    max: round(Math.max(...clean)),
    spread: mid ? round((p75 - p25) / Math.abs(mid)) : 0,
    values: clean.map((value) => round(value)),
  };
}

export function round(value, digits = 4) {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Runs `rounds` rounds of baseline then each candidate (b, c1, c2, …, b, c1, c2, …).
 * Each measure answers a number; ratios are taken within a round (candidate ÷ baseline,
 * or baseline ÷ candidate when `higherIsBetter`, so FPS ratios read "share of baseline").
 */
export async function interleave({ rounds, baseline, candidates, onRound }) {
  const base = [];
  const cand = Object.fromEntries(Object.keys(candidates).map((key) => [key, []]));
  for (let round = 0; round < rounds; round++) {
    base.push(await baseline(round));
    for (const [key, measure] of Object.entries(candidates)) cand[key].push(await measure(round));
    onRound?.(round);
  }
  return { base, cand };
}

/** Per-round ratios of two equally long series. */
export const ratios = (numerators, denominators) =>
  numerators.map((value, index) => value / denominators[index]);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
