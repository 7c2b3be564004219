import { createHash, timingSafeEqual } from "node:crypto";
import ipaddr from "ipaddr.js";

/** Address ranges only the host or its private network can reach. */
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal", "linkLocal"]);

/** True when HOST is a loopback or private address: nobody outside can reach the port. */
export function isPrivateBind(host: string): boolean {
  if (host === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  return PRIVATE_RANGES.has(ipaddr.process(host).range());
}

export type MetricsAccess = "allowed" | "off" | "refused";

/**
 * Who may read /metrics. With METRICS_TOKEN, whoever sends it as a bearer token (wherever
 * the server listens); without it, anyone when the server listens on a private address
 * only, else nobody — /metrics is then not there at all (404).
 */
export function metricsAccess(
  settings: { metricsToken: string | null; host: string },
  authorization: string | undefined,
): MetricsAccess {
  const { metricsToken } = settings;
  if (metricsToken === null) return isPrivateBind(settings.host) ? "allowed" : "off";
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  return sameSecret(given, metricsToken) ? "allowed" : "refused";
}

/** Compares in constant time: digests first, so the length tells nothing either. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
