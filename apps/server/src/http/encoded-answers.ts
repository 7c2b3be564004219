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
type Effort = "quick" | "best";
/**
 * In libuv's thread pool, off the event loop. An answer is first compressed quickly, so the
 * open that asked waits least, then again at the better level for the opens after it
 * (5 MB of workflow, measured here: brotli quality 1 in ~20 ms gives 1,105 KB, quality 4
 * in ~90 ms 1,035 KB; gzip level 3 ~40 ms 1,152 KB, level 6 ~75 ms 1,072 KB).
 */
const LEVELS: Record<Encoding, Record<Effort, number>> = {
  br: { quick: 1, best: 4 },
  gzip: { quick: 3, best: 6 },
};
const compress = (encoding: Encoding, effort: Effort, body: Buffer): Promise<Buffer> => {
  const level = LEVELS[encoding][effort];
  if (encoding === "gzip") return gzip(body, { level });
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: level,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
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
 * requests for the same answer share one compression. The first request gets a quick
 * compression; a better one then replaces it for the requests after (`upgraded()` waits).
 */
export class EncodedAnswers {
  readonly #entries = new Map<string, Promise<Buffer>>();
  readonly #sizes = new Map<string, number>();
  readonly #upgrades = new Set<Promise<void>>();
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
    const source = body();
    const pending = compress(encoding, "quick", source);
    this.#entries.set(entryKey, pending);
    pending.then(
      (compressed) => {
        if (!this.#account(entryKey, pending, compressed.length)) return;
        this.#upgrade(entryKey, pending, compress(encoding, "best", source));
      },
      () => this.#drop(entryKey),
    );
    return pending;
  }

  /** Compressed bytes held (for tests). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Resolves once the better compressions under way have replaced the quick ones. */
  async upgraded(): Promise<void> {
    while (this.#upgrades.size > 0) await Promise.all(this.#upgrades);
  }

  /** Puts `better` in place of `quick` (same place in the eviction order), if still held. */
  #upgrade(entryKey: string, quick: Promise<Buffer>, better: Promise<Buffer>): void {
    const done = better.then(
      (compressed) => {
        if (this.#entries.get(entryKey) !== quick) return;
        const was = this.#sizes.get(entryKey) ?? 0;
        // Map.set on a held key keeps its place: an upgrade is not a use.
        this.#entries.set(entryKey, better);
        this.#account(entryKey, better, compressed.length - was);
      },
      () => undefined, // the quick form stays
    );
    this.#upgrades.add(done);
    void done.finally(() => this.#upgrades.delete(done));
  }

  /** Counts `size` more bytes for the entry `pending` still is; false if it no longer is. */
  #account(entryKey: string, pending: Promise<Buffer>, size: number): boolean {
    if (this.#entries.get(entryKey) !== pending) return false;
    this.#sizes.set(entryKey, (this.#sizes.get(entryKey) ?? 0) + size);
    this.#bytes += size;
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#drop(key);
    }
    return this.#entries.get(entryKey) === pending;
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
