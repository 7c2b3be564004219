import type { ApiToken } from "@atelier/core";
import type { ApiTokenRecord } from "../commands/api-tokens.ts";

/** A token as `GET /api/tokens` lists it: never its text nor its hash. */
export function presentApiToken(row: ApiTokenRecord): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}
