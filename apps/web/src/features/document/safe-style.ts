/**
 * A saved node's or wire's `style` is handed to React Flow as inline CSS. From a shared
 * workflow it may hold `url(…)` (a request to any site as soon as the canvas draws, the way
 * a tracking pixel works) or CSS escapes that spell one; such values are dropped on load.
 */
const LOADS_OR_ESCAPES = /\b(url|image|image-set|cross-fade|element|expression)\s*\(|\\|@import/i;

/** `item` without the style values that would load something; the same object when clean. */
export function withSafeStyle<T extends { style?: object | undefined }>(item: T): T {
  if (!item.style) return item;
  const entries = Object.entries(item.style);
  // Only numbers and clean strings: React turns any other value (an array, an object) into
  // text, which could spell a `url(…)` the string test never saw.
  const kept = entries.filter(([, value]) =>
    typeof value === "number"
      ? Number.isFinite(value)
      : typeof value === "string" && !LOADS_OR_ESCAPES.test(value),
  );
  return kept.length === entries.length ? item : { ...item, style: Object.fromEntries(kept) };
}
