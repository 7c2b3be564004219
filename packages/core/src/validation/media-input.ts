export const MEDIA_INPUT_MESSAGES = {
  invalid: "Invalid media data: must be URL or base64 data URL",
  missingPrefix: "Invalid base64 string: missing data URL prefix",
  missingContent: "Invalid base64 string: missing data content",
} as const;

/** http(s) scheme, then a host without spaces (core has no URL parser of its own). */
const HTTP_URL = /^https?:\/\/[^\s/?#@]+(@[^\s/?#]+)?([/?#]\S*)?$/i;

function isHttpUrl(value: string): boolean {
  return HTTP_URL.test(value);
}

/**
 * A media input must be an http(s) URL or a base64 data URL with a prefix, a comma and
 * content (SPEC §5). Returns null when valid, else the SPEC message.
 */
export function validateMediaInput(value: unknown): string | null {
  if (typeof value !== "string") return MEDIA_INPUT_MESSAGES.invalid;
  const trimmed = value.trim();
  if (isHttpUrl(trimmed)) return null;
  if (!trimmed.toLowerCase().startsWith("data:")) return MEDIA_INPUT_MESSAGES.invalid;
  const comma = trimmed.indexOf(",");
  if (comma === -1) return MEDIA_INPUT_MESSAGES.missingPrefix;
  if (trimmed.slice(comma + 1).trim().length === 0) return MEDIA_INPUT_MESSAGES.missingContent;
  return null;
}
