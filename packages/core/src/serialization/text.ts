import { LIMITS } from "../limits.ts";

/** Cuts text longer than the output limit and marks it with "... (truncated)" (SPEC §9). */
export function truncateText(text: string, max: number = LIMITS.text.maxOutputChars): string {
  if (text.length <= max) return text;
  return text.slice(0, max) + LIMITS.text.truncationSuffix;
}

/** UTF-8 size of a string in bytes, without TextEncoder (core stays free of platform APIs). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
