import { createHash, randomBytes } from "node:crypto";

/** Says what a pasted secret is (and lets secret scanners find leaked ones). */
const TOKEN_PREFIX = "atl_";
/** Characters of a token kept in clear for recognising it in the list (not enough to use it). */
const SHOWN_CHARACTERS = TOKEN_PREFIX.length + 6;

/**
 * A new personal API token: 256 random bits. Only its SHA-256 is stored: with that much
 * entropy a fast, unsalted hash is enough (nothing to brute-force), and lookups go straight
 * to the hash's index, so no token is ever compared in clear.
 */
export function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, SHOWN_CHARACTERS) };
}

/** The stored form of a token: its SHA-256, hex. */
export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
