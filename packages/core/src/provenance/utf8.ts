/**
 * UTF-8 without TextDecoder/TextEncoder (core is typed for plain ES, no DOM or Node).
 * Text that is not valid UTF-8 decodes to null.
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  let escaped = "";
  for (const byte of bytes) escaped += `%${byte.toString(16).padStart(2, "0")}`;
  try {
    return decodeURIComponent(escaped);
  } catch {
    return null;
  }
}

/** ASCII text as bytes (markers we search for). */
export const asciiBytes = (text: string): Uint8Array =>
  Uint8Array.from(text, (character) => character.charCodeAt(0));
