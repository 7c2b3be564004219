import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  OperationFailedError,
  RateLimitedError,
  TooLargeError,
  UnauthenticatedError,
} from "../domain/errors.ts";

/** An error whose message is fit for the user (a SPEC text), with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers that go with it (`Retry-After` of a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (message = "Not found") => new HttpError(404, message);

/** "42 s", "12 min", "3 h": how long until a limit lets the client in again. */
export function formatWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

/** 429 `{ error: "<limit>. Try again in <wait>." }` with `Retry-After: <seconds>`. */
export function tooManyRequests(limit: string, retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(
    429,
    `${limit}. Try again in ${formatWait(seconds)}.`,
    {},
    {
      "retry-after": String(seconds),
    },
  );
}

/** The status code of each domain error kind (domain/errors.ts): the one mapping. */
const STATUS_OF = new Map<abstract new (...args: never[]) => DomainError, number>([
  [InvalidInputError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [TooLargeError, 413],
  [OperationFailedError, 500],
]);

/** The HTTP answer of a domain error: its status, its message, and what goes with it. */
export function httpErrorOf(error: DomainError): HttpError {
  if (error instanceof RateLimitedError) {
    return tooManyRequests(error.limit, error.retryAfterSeconds);
  }
  const extra = error instanceof ConflictError ? error.details : {};
  for (const [kind, status] of STATUS_OF) {
    if (error instanceof kind) return new HttpError(status, error.message, extra);
  }
  return new HttpError(500, error.message);
}

/** An error whose message is fit for the user as it is (not an internal failure). */
export function isUserFacingError(error: unknown): error is HttpError | DomainError {
  return error instanceof HttpError || error instanceof DomainError;
}

export const NUL_MESSAGE = "Invalid request: text must not contain NUL (\\u0000) characters";

/** PostgreSQL refuses NUL in text ("invalid byte sequence", "unsupported Unicode escape"). */
function isNulRefusal(error: unknown): boolean {
  for (let at = error; at && typeof at === "object"; at = (at as { cause?: unknown }).cause) {
    const code = (at as { code?: unknown }).code;
    if (code === "22021" || code === "22P05") return true;
  }
  return false;
}

/** Read and drop at most this much of a refused request's unread body before answering. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 10_000;

/**
 * Reads what is left of a request body (up to DRAIN_BYTES, for DRAIN_MS at most) and drops
 * it. An error answer sent while the client is still sending, followed by closing the
 * connection, reaches many clients as a connection reset instead of the answer (they read
 * only once they have sent everything): so the rest is taken first, then answered.
 */
function drain(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let left = DRAIN_BYTES;
    const done = () => {
      clearTimeout(timer);
      raw.off("data", count).off("end", done).off("close", done).off("error", done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    raw.unpipe(); // a multipart parser may still be reading it
    raw.on("data", count).once("end", done).once("close", done).once("error", done);
    raw.resume();
  });
}

/** Every error leaves as `{ error }`; internal details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(
    async (thrown: FastifyError | HttpError | DomainError | ZodError, request, reply) => {
      const error = thrown instanceof DomainError ? httpErrorOf(thrown) : thrown;
      if (!request.raw.complete) {
        await drain(request.raw);
        reply.header("connection", "close");
      }
      if (error instanceof HttpError) {
        return reply
          .code(error.statusCode)
          .headers(error.headers)
          .send({ error: error.message, ...error.extra });
      }
      if (error instanceof ZodError) {
        const first = error.issues[0];
        const where = first?.path.length ? `${first.path.join(".")}: ` : "";
        return reply
          .code(400)
          .send({ error: `Invalid request: ${where}${first?.message ?? "bad input"}` });
      }
      if (isNulRefusal(error)) return reply.code(400).send({ error: NUL_MESSAGE });
      const status = (error as FastifyError).statusCode;
      if (status && status >= 400 && status < 500) {
        return reply.code(status).send({ error: error.message });
      }
      request.log.error({ err: error }, "request failed");
      return reply.code(500).send({ error: "Internal server error" });
    },
  );
}
