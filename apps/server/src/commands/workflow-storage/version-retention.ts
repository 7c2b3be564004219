import { VERSION_LIMITS } from "@atelier/core";

export interface AgedVersion {
  seq: number;
  createdAt: Date;
  name: string | null;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * The versions retention drops at `now` (issue 24): every version is kept for 7 days, then
 * the last of each hour up to 30 days old, then the last of each (UTC) day. Named versions
 * are kept until their name is removed; they do not count as the last of their hour or day.
 */
export function versionsToDrop(versions: readonly AgedVersion[], now: Date): number[] {
  const lastOfBucket = new Map<string, AgedVersion>();
  const thinned: AgedVersion[] = [];
  for (const version of versions) {
    const age = now.getTime() - version.createdAt.getTime();
    if (version.name !== null || age <= VERSION_LIMITS.keepAllMs) continue;
    const time = version.createdAt.getTime();
    const bucket =
      age <= VERSION_LIMITS.keepHourlyMs
        ? `h${Math.floor(time / HOUR)}`
        : `d${Math.floor(time / DAY)}`;
    thinned.push(version);
    const last = lastOfBucket.get(bucket);
    if (!last || version.seq > last.seq) lastOfBucket.set(bucket, version);
  }
  const kept = new Set([...lastOfBucket.values()].map((version) => version.seq));
  return thinned.filter((version) => !kept.has(version.seq)).map((version) => version.seq);
}
