/**
 * JSON.parse of a large answer in steps. Parsing a 10 MB workflow at once is a task of
 * ~50 ms; here the array holding its nodes is cut at its top-level commas (a scan that
 * skips over strings) and parsed a piece of about PIECE_CHARS per task. The answer is
 * exactly JSON.parse(text); anything unexpected falls back to that.
 */

/** Texts shorter than this are parsed at once (~10 ms). */
export const STEPPED_FROM_CHARS = 2_000_000;
/** About this much text is scanned, or parsed, per task. */
export const PIECE_CHARS = 1_000_000;

/** Stands in for the cut array's items while the rest is parsed. */
const MARKER = "\u0000parse-in-steps";

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN = new Set([91, 123]); // [ {
const CLOSE = new Set([93, 125]); // ] }

/** Where the string opening at `start` closes (its unescaped quote), or -1. */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; ; at++) {
    at = text.indexOf('"', at);
    if (at < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

/**
 * The top-level commas of the array opening at `open`, and its closing bracket; null when
 * the text ends first. Scans in steps of PIECE_CHARS.
 */
async function arrayCuts(
  text: string,
  open: number,
  nextTask: () => Promise<void>,
  pieceChars: number,
) {
  const commas: number[] = [];
  let depth = 0;
  let stepEnd = open + pieceChars;
  for (let at = open + 1; at < text.length; at++) {
    if (at > stepEnd) {
      await nextTask();
      stepEnd = at + pieceChars;
    }
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = stringEnd(text, at);
      if (at < 0) return null;
    } else if (OPEN.has(code)) depth++;
    else if (CLOSE.has(code)) {
      if (depth === 0) return { commas, close: at };
      depth--;
    } else if (code === COMMA && depth === 0) commas.push(at);
  }
  return null;
}

/**
 * `JSON.parse(text)` in steps: `key` names the large array (e.g. `"nodes":[`), and
 * `locate` finds that array in the parsed result. The first `key` in the text must be it;
 * otherwise (or for a short text) the text is parsed at once.
 */
export async function parseInSteps<T>(
  text: string,
  key: string,
  locate: (parsed: T) => unknown,
  nextTask: () => Promise<void>,
  { fromChars = STEPPED_FROM_CHARS, pieceChars = PIECE_CHARS } = {},
): Promise<T> {
  const found = text.length < fromChars ? -1 : text.indexOf(key);
  const open = found + key.length - 1;
  const cuts = found < 0 ? null : await arrayCuts(text, open, nextTask, pieceChars);
  if (!cuts) return JSON.parse(text) as T;
  await nextTask();
  // Everything but the array's items first, a marker in their place: `locate` must find
  // exactly that array (so the first match was the array meant).
  const parsed = JSON.parse(
    `${text.slice(0, open)}${JSON.stringify([MARKER])}${text.slice(cuts.close + 1)}`,
  ) as T;
  const items = locate(parsed);
  if (!Array.isArray(items) || items.length !== 1 || items[0] !== MARKER)
    return JSON.parse(text) as T;
  items.length = 0;
  const ends = [...cuts.commas, cuts.close];
  let start = open + 1;
  for (let next = 0; next < ends.length && start < cuts.close; ) {
    // Whole items, at least one, up to about `pieceChars`.
    let last = next;
    while (last + 1 < ends.length && (ends[last + 1] as number) - start <= pieceChars) last++;
    const end = ends[last] as number;
    const piece = text.slice(start, end);
    // A blank piece is an empty item (`[1,,2]`, `[1,]`): invalid, as JSON.parse will say.
    if (!/\S/.test(piece)) return JSON.parse(text) as T;
    await nextTask();
    for (const item of JSON.parse(`[${piece}]`) as unknown[]) items.push(item);
    start = end + 1;
    next = last + 1;
  }
  return parsed;
}
