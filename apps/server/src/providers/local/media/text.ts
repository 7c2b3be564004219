/**
 * Offline text for text nodes: without a model we cannot answer, so we say so plainly and
 * reflect the request back (its gist and key terms), deterministically.
 */
import { num } from "./params.ts";
import { pick, rngFrom } from "./seed.ts";

export interface RenderTextOptions {
  prompt: string;
  seed: number;
  /** Longest result in characters (default 2000); longer text is cut with an ellipsis. */
  maxLength?: number;
  /** Optional system prompt or instructions; only their presence is mentioned. */
  system?: string;
}

/** The label every local answer starts with, so nobody mistakes it for a model's output. */
export const LOCAL_TEXT_LABEL = "[Local model]";

const STOPWORDS = new Set(
  (
    "a an and are as at be but by can could do does for from has have how i if in into is it " +
    "its me my of on or our please should so that the their them then there these this to " +
    "us was we what when where which who why will with would you your about make write give"
  ).split(" "),
);

/** Up to `limit` distinctive words of the prompt, most frequent first (ties: first seen). */
export function keyTerms(prompt: string, limit = 5): string[] {
  const counts = new Map<string, { count: number; first: number }>();
  const words = prompt.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  words.forEach((word, index) => {
    if (word.length < 3 || STOPWORDS.has(word)) return;
    const entry = counts.get(word) ?? { count: 0, first: index };
    entry.count++;
    counts.set(word, entry);
  });
  return [...counts]
    .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
    .slice(0, limit)
    .map(([word]) => word);
}

// Cuts at a word boundary when one is near, and marks the cut.
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return "…".slice(0, max);
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/**
 * A deterministic, clearly labelled offline answer: it says no text model is configured,
 * restates the request's gist and key terms, and never exceeds `maxLength` characters.
 */
export function renderText(options: RenderTextOptions): string {
  const maxLength = num("text", { maxLength: options.maxLength }, "maxLength", {
    min: 1,
    max: 1_000_000,
    integer: true,
    fallback: 2000,
  });
  const prompt = (options.prompt ?? "").replace(/\s+/g, " ").trim();
  const rng = rngFrom("text", prompt, options.system ?? "", options.seed);
  const opener = pick(rng, [
    "No text model is configured, so this is an offline placeholder answer.",
    "This answer was produced offline: no text model is configured on this server.",
    "Offline placeholder: connect a text provider to get a real answer.",
  ]);
  const parts = [`${LOCAL_TEXT_LABEL} ${opener}`];
  if (!prompt) {
    parts.push("The prompt was empty; write one to get a response.");
  } else {
    const sentence = /^(.+?[.!?])(\s|$)/.exec(prompt)?.[1] ?? prompt;
    parts.push(`You asked: “${clip(sentence, 240)}”`);
    const terms = keyTerms(prompt);
    if (terms.length > 0) parts.push(`Key terms: ${terms.join(", ")}.`);
    const words = prompt.split(" ").length;
    parts.push(`(${words} word${words === 1 ? "" : "s"}, ${prompt.length} characters.)`);
  }
  if (options.system?.trim()) parts.push("System instructions were provided and noted.");
  return clip(parts.join(" "), maxLength);
}
