import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { tooManyRequests } from "./errors.ts";

export { formatWait, tooManyRequests } from "./errors.ts";

/** The client's address as the limits key it (IPv6 by its /64, like @fastify/rate-limit). */
export const addressOf = (request: FastifyRequest) => normalizeIP(request.ip, 64);

export const MB = 1024 * 1024;

/**
 * A request counter per key the route names (a user id, an address) over a time window,
 * kept by @fastify/rate-limit's store; `check` throws the 429 once the key is over `max`.
 */
export function keyedRateLimit(
  app: FastifyInstance,
  options: { max: number; timeWindowMs: number; limit: string },
) {
  const keys = new WeakMap<FastifyRequest, string>();
  const counter = app.createRateLimit({
    max: options.max,
    timeWindow: options.timeWindowMs,
    keyGenerator: (request) => keys.get(request) ?? addressOf(request),
  });
  return async (request: FastifyRequest, key: string): Promise<void> => {
    keys.set(request, key);
    const state = await counter(request);
    if (!state.isAllowed && state.isExceeded)
      throw tooManyRequests(options.limit, state.ttlInSeconds);
  };
}

/**
 * Bytes per key in fixed time windows (upload budgets), in memory like the request counters;
 * at most `maxKeys` keys are remembered (the oldest windows are forgotten first).
 */
export class ByteBudget {
  readonly #windows = new Map<string, { until: number; bytes: number }>();

  constructor(
    readonly maxBytes: number,
    readonly windowMs: number,
    readonly limit: string,
    readonly maxKeys = 100_000,
  ) {}

  /** Throws the 429 unless `bytes` more fit in `key`'s current window. */
  check(key: string, bytes: number, now = Date.now()): void {
    const window = this.#current(key, now);
    if ((window?.bytes ?? 0) + bytes <= this.maxBytes) return;
    throw tooManyRequests(this.limit, ((window?.until ?? now + this.windowMs) - now) / 1000);
  }

  /** Counts `bytes` against `key`. */
  add(key: string, bytes: number, now = Date.now()): void {
    let window = this.#current(key, now);
    if (!window) {
      if (this.#windows.size >= this.maxKeys) this.#evict(now);
      window = { until: now + this.windowMs, bytes: 0 };
      this.#windows.set(key, window);
    }
    window.bytes += bytes;
  }

  #current(key: string, now: number) {
    const window = this.#windows.get(key);
    if (window && window.until <= now) this.#windows.delete(key);
    return window && window.until > now ? window : undefined;
  }

  #evict(now: number): void {
    for (const [key, window] of this.#windows) if (window.until <= now) this.#windows.delete(key);
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < this.maxKeys * 0.9) break;
      this.#windows.delete(key);
    }
  }
}
