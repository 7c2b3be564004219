import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AbuseLimits } from "../env-limits.ts";
import { addressOf, ByteBudget, keyedRateLimit, MB } from "./limits.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Upload budgets (see env-limits.ts), per session — the account or anonymous session, else
 * the address — and per address: uploads a minute, bytes a minute, and bytes anonymous
 * uploads may store a day. Bytes are checked against the request's declared length before
 * the file is read, and counted as the file arrives.
 */
export function uploadBudgets(app: FastifyInstance, limits: AbuseLimits) {
  const perSession = keyedRateLimit(app, {
    max: limits.uploadsPerMinutePerSession,
    timeWindowMs: MINUTE,
    limit: `Too many uploads: at most ${limits.uploadsPerMinutePerSession} a minute`,
  });
  const mb = (bytes: number) => Math.floor(bytes / MB);
  const sessionBytes = new ByteBudget(
    limits.uploadBytesPerMinute,
    MINUTE,
    `Upload limit reached: at most ${mb(limits.uploadBytesPerMinute)} MB a minute`,
  );
  const addressBytes = new ByteBudget(
    limits.uploadBytesPerMinutePerAddress,
    MINUTE,
    `Upload limit reached for this address: at most ${mb(limits.uploadBytesPerMinutePerAddress)} MB a minute`,
  );
  const { anonymousBytes, anonymousAddressBytes } = anonymousStorage(app, limits);
  return {
    /** Before the body is read: the upload counts, and its declared length must fit. */
    async admit(request: FastifyRequest, session: string, anonymous: boolean) {
      await perSession(request, session);
      const declared = Number(request.headers["content-length"]) || 0;
      sessionBytes.check(session, declared);
      addressBytes.check(addressOf(request), declared);
      if (anonymous) {
        anonymousBytes.check(session, declared);
        anonymousAddressBytes.check(addressOf(request), declared);
      }
    },
    /** The file's bytes as they arrived (a request without a declared length is checked here). */
    received(request: FastifyRequest, session: string, bytes: number) {
      sessionBytes.check(session, bytes);
      addressBytes.check(addressOf(request), bytes);
      sessionBytes.add(session, bytes);
      addressBytes.add(addressOf(request), bytes);
    },
    /** Anonymous files about to be stored. */
    store: (request: FastifyRequest, session: string, bytes: number) =>
      storeAnonymous(app, limits, request, session, bytes),
  };
}

/** One daily storage budget per server for anonymous files, however they arrive. */
const anonymousBudgets = new WeakMap<object, ReturnType<typeof makeAnonymousStorage>>();

function makeAnonymousStorage(limits: AbuseLimits) {
  const mb = (bytes: number) => Math.floor(bytes / MB);
  return {
    anonymousBytes: new ByteBudget(
      limits.anonymousUploadBytesPerDay,
      DAY,
      `Storage limit for anonymous uploads reached: at most ${mb(limits.anonymousUploadBytesPerDay)} MB a day (sign in to upload more)`,
    ),
    anonymousAddressBytes: new ByteBudget(
      limits.anonymousUploadBytesPerDayPerAddress,
      DAY,
      `Storage limit for anonymous uploads from this address reached: at most ${mb(limits.anonymousUploadBytesPerDayPerAddress)} MB a day (sign in to upload more)`,
    ),
  };
}

function anonymousStorage(app: FastifyInstance, limits: AbuseLimits) {
  const budgets = anonymousBudgets.get(app.server) ?? makeAnonymousStorage(limits);
  anonymousBudgets.set(app.server, budgets);
  return budgets;
}

/**
 * Counts `bytes` an anonymous session is about to store — an upload, or media sent inline
 * with a generation — against the daily budgets (429 when over).
 */
export function storeAnonymous(
  app: FastifyInstance,
  limits: AbuseLimits,
  request: FastifyRequest,
  session: string,
  bytes: number,
): void {
  const { anonymousBytes, anonymousAddressBytes } = anonymousStorage(app, limits);
  anonymousBytes.check(session, bytes);
  anonymousAddressBytes.check(addressOf(request), bytes);
  anonymousBytes.add(session, bytes);
  anonymousAddressBytes.add(addressOf(request), bytes);
}
