/**
 * Deterministic seeding for the local provider: the same inputs always give the same
 * numbers, so the same node run twice yields byte-identical media.
 */

/** A pseudo-random source in [0, 1), like `Math.random` but reproducible. */
export type Rng = () => number;

// Param objects reach us from different code paths with keys in different orders; sorting
// keys makes `{a, b}` and `{b, a}` hash alike.
function canonical(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

/**
 * A stable 32-bit seed from any JSON-like values: FNV-1a over the UTF-8 of their canonical
 * JSON (object keys sorted, bigint and byte arrays stringified).
 */
export function seedFrom(...parts: unknown[]): number {
  const bytes = Buffer.from(JSON.stringify(canonical(parts)), "utf8");
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a tiny, fast PRNG with good enough spread for procedural art. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PRNG seeded from `parts` (shorthand for `mulberry32(seedFrom(...parts))`). */
export function rngFrom(...parts: unknown[]): Rng {
  return mulberry32(seedFrom(...parts));
}

/** An integer in [min, max], inclusive. */
export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick: empty list");
  return item;
}
