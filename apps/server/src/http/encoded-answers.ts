import { promisify } from "node:util";
import zlib from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Answers from this size on are compressed once and kept, not per request. */
export const ENCODED_ANSWER_MIN_BYTES = 256 * 1024;
/** The cache's default budget in compressed bytes (a 5 MB workflow is ~1 MB as brotli). */
const DEFAULT_BUDGET_BYTES = 32 * 1024 * 1024;

type Encoding = "br" | "gzip";
const negotiator = new Negotiator({ supportedValues: ["br", "gzip"] });

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** In libuv's thread pool, off the event loop: a 5 MB answer takes ~0.2 s at these levels. */
const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzip(body, { level: 6 }),
};

/** The encoding to answer with for a request's Accept-Encoding, if any. */
export function answerEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const chosen = negotiator.negotiate(acceptEncoding);
  return chosen === "br" || chosen === "gzip" ? chosen : null;
}

/**
 * Compressed forms of large answers, by a key naming the exact answer (a workflow's id and
 * version and the viewer's part of the answer), least recently used out first. Concurrent
 * requests for the same answer share one compression.
 */
export class EncodedAnswers {
  readonly #entries = new Map<string, Promise<Buffer>>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;

  constructor(readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  encoded(key: string, encoding: Encoding, body: () => Buffer): Promise<Buffer> {
    const entryKey = `${encoding}\n${key}`;
    const held = this.#entries.get(entryKey);
    if (held) {
      this.#entries.delete(entryKey);
      this.#entries.set(entryKey, held);
      return held;
    }
    const pending = COMPRESS[encoding](body());
    this.#entries.set(entryKey, pending);
    pending.then(
      (compressed) => this.#account(entryKey, pending, compressed.length),
      () => this.#drop(entryKey),
    );
    return pending;
  }

  /** Compressed bytes held (for tests). */
  get bytes(): number {
    return this.#bytes;
  }

  #account(entryKey: string, pending: Promise<Buffer>, size: number): void {
    if (this.#entries.get(entryKey) !== pending) return;
    this.#sizes.set(entryKey, size);
    this.#bytes += size;
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#drop(key);
    }
  }

  #drop(entryKey: string): void {
    this.#entries.delete(entryKey);
    this.#bytes -= this.#sizes.get(entryKey) ?? 0;
    this.#sizes.delete(entryKey);
  }
}

/**
 * Sends a JSON answer: a large one compressed once per `key` (the key must change whenever
 * the bytes do), a small one as is, for the compression plugin to handle per request.
 */
export async function sendJsonAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answers: EncodedAnswers,
  key: string,
  body: Buffer,
): Promise<FastifyReply> {
  reply.type("application/json; charset=utf-8");
  if (body.length < ENCODED_ANSWER_MIN_BYTES) return reply.send(body);
  reply.header("vary", "accept-encoding");
  const encoding = answerEncoding(request.headers["accept-encoding"]);
  if (!encoding) return reply.send(body);
  const compressed = await answers.encoded(key, encoding, () => body);
  return reply.header("content-encoding", encoding).send(compressed);
}
