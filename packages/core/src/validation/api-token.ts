import { API_TOKEN_ERRORS, API_TOKEN_LIMITS } from "../api/constants.ts";

/** Returns null for a valid API token name, else its message. Surrounding spaces are ignored. */
export function validateApiTokenName(name: unknown): string | null {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (trimmed.length === 0) return API_TOKEN_ERRORS.nameRequired;
  if (trimmed.length > API_TOKEN_LIMITS.nameMaxLength) return API_TOKEN_ERRORS.nameTooLong;
  return null;
}
