import type { VersionEntry } from "@atelier/core";
import type { VersionListing } from "../commands/workflow-storage/version-history.ts";

/** A version's list entry, with the optional fields left out when empty. */
export function presentVersion(
  version: Omit<VersionListing, "summary">,
): Omit<VersionEntry, "summary"> {
  return {
    id: version.seq,
    created_at: version.createdAt.toISOString(),
    ...(version.name ? { name: version.name } : {}),
    ...(version.author ? { author: version.author } : {}),
    ...(version.restoredFrom ? { restored_from: version.restoredFrom } : {}),
  };
}

export const presentVersionEntry = (version: VersionListing): VersionEntry => ({
  ...presentVersion(version),
  summary: version.summary,
});
