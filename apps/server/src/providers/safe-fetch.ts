import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, type Dispatcher, request } from "undici";

/** Why an outbound fetch failed. Messages never include the URL (it may carry a signed token). */
export type OutboundFetchErrorCode =
  | "blocked_address"
  | "bad_scheme"
  | "too_many_redirects"
  | "timeout"
  | "too_large"
  | "http_error"
  | "network";

/** Thrown by {@link SafeFetcher.fetchBytes}; `status` is set for `http_error`. */
export class OutboundFetchError extends Error {
  constructor(
    readonly code: OutboundFetchErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "OutboundFetchError";
  }
}

export interface SafeFetcherOptions {
  /** Exact `host:port` entries (e.g. `127.0.0.1:8080`, `[::1]:9000`) exempt from the address check. */
  allowHosts?: string[];
  /** Overall deadline for one fetch, redirects and body included. Default 30 s (SPEC §7). */
  timeoutMs?: number;
  /** Default size cap in bytes. Default 100 MB, SPEC §9's max video. */
  maxBytes?: number;
}

export interface FetchBytesOptions {
  /** Overrides the fetcher's size cap for this call. */
  maxBytes?: number;
  /** Sent to the first origin only: dropped when a redirect leaves it, so tokens don't leak. */
  headers?: Record<string, string>;
}

export interface FetchedBytes {
  bytes: Uint8Array;
  contentType: string | null;
  finalUrl: string;
}

export interface SafeFetcher {
  /** GETs a URL and returns its whole body, refusing non-public addresses on every hop. */
  fetchBytes(url: string, opts?: FetchBytesOptions): Promise<FetchedBytes>;
  /** Destroys the connection pools. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 104_857_600;
const MAX_REDIRECTS = 5;
// Unwanted bodies up to this size are read so the connection can be reused; larger ones close it.
const DISCARD_LIMIT = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * True only for globally routable unicast addresses. Everything ipaddr.js puts in a named
 * range (private, loopback, link-local, unique-local, CGNAT, multicast, reserved, 6to4,
 * NAT64…) is refused; IPv4-mapped IPv6 is judged as the IPv4 address it carries.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr.range() === "unicast";
}

/** Marks a refusal made inside the DNS lookup, so it can be told apart from network errors. */
class BlockedLookupError extends Error {
  readonly code = "ERR_OUTBOUND_BLOCKED";
}

/** Resolves like dns.lookup, but fails if any resolved address is not public (no partial use). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, "");
    if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) {
      return callback(new BlockedLookupError("Refused a non-public address"), "");
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

/** Creates a fetcher with its own connection pools; call `close()` when done. */
export function createSafeFetcher(options: SafeFetcherOptions = {}): SafeFetcher {
  const allowHosts = new Set((options.allowHosts ?? []).map((h) => h.trim().toLowerCase()));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const guarded = new Agent({ connect: { lookup: guardedLookup } });
  // Allow-listed hosts are trusted by the operator, so they skip the guarded lookup too.
  const open = new Agent();

  /** Checks scheme and literal-IP host before connecting (net.connect skips lookup for IPs). */
  function dispatcherFor(url: URL): Dispatcher {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new OutboundFetchError("bad_scheme", "Only http and https URLs can be fetched");
    }
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    if (allowHosts.has(`${url.hostname}:${port}`)) return open;
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(host) && !isPublicAddress(host)) {
      throw new OutboundFetchError("blocked_address", "Refused a non-public address");
    }
    return guarded;
  }

  async function fetchBytes(rawUrl: string, opts: FetchBytesOptions = {}): Promise<FetchedBytes> {
    const maxBytes = opts.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
    const signal = AbortSignal.timeout(timeoutMs);
    let url = parseUrl(rawUrl);
    const firstOrigin = url.origin;
    try {
      for (let hop = 0; ; hop++) {
        const dispatcher = dispatcherFor(url);
        const headers = url.origin === firstOrigin ? opts.headers : undefined;
        const res = await request(url, { method: "GET", dispatcher, signal, headers });
        const location = res.headers.location;
        if (REDIRECT_STATUSES.has(res.statusCode) && typeof location === "string") {
          await res.body.dump({ signal, limit: DISCARD_LIMIT });
          if (hop >= MAX_REDIRECTS) {
            throw new OutboundFetchError("too_many_redirects", "Too many redirects");
          }
          url = parseUrl(location, url);
          continue;
        }
        if (res.statusCode < 200 || res.statusCode > 299) {
          await res.body.dump({ signal, limit: DISCARD_LIMIT });
          throw new OutboundFetchError(
            "http_error",
            `Remote server answered ${res.statusCode}`,
            res.statusCode,
          );
        }
        const declared = Number(res.headers["content-length"]);
        if (declared > maxBytes) {
          await res.body.dump({ signal, limit: DISCARD_LIMIT });
          throw tooLarge();
        }
        // Content-length may be absent or lie, so count while streaming too.
        const chunks: Buffer[] = [];
        let total = 0;
        for await (const chunk of res.body) {
          total += chunk.length;
          if (total > maxBytes) throw tooLarge(); // leaving the loop destroys the body
          chunks.push(chunk);
        }
        const type = res.headers["content-type"];
        return {
          bytes: Buffer.concat(chunks, total), // a Uint8Array; no extra copy of up to 100 MB
          contentType: typeof type === "string" ? type : null,
          finalUrl: url.href,
        };
      }
    } catch (err) {
      if (err instanceof OutboundFetchError) throw err;
      if (signal.aborted) throw new OutboundFetchError("timeout", "Remote server timed out");
      if (hasCause(err, (e) => e instanceof BlockedLookupError)) {
        throw new OutboundFetchError("blocked_address", "Refused a non-public address");
      }
      throw new OutboundFetchError("network", "Could not reach the remote server");
    }
  }

  return {
    fetchBytes,
    async close() {
      await Promise.all([guarded.destroy(), open.destroy()]);
    },
  };
}

function parseUrl(value: string, base?: URL): URL {
  try {
    return new URL(value, base);
  } catch {
    throw new OutboundFetchError("bad_scheme", "Not a valid URL");
  }
}

function tooLarge(): OutboundFetchError {
  return new OutboundFetchError("too_large", "Remote file is larger than allowed");
}

/** Walks an error's `cause` chain (undici may wrap the socket error). */
function hasCause(err: unknown, test: (e: unknown) => boolean): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return true;
  }
  return false;
}
