import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/**
 * What is compressed on the fly: JSON, JavaScript and text answers. Never event streams (a
 * compressor buffers, so events would stop arriving) and never media, which is compressed
 * already or served byte-ranged.
 */
const COMPRESSIBLE =
  /^(?:application\/(?:[\w.+-]+\+)?json|application\/javascript|text\/(?!event-stream))/;

/**
 * API answers compressed by Accept-Encoding (brotli, else gzip). Built files are not: the
 * build wrote their .br and .gz copies (@fastify/static sends those), and the largest
 * answers, workflow opens, are compressed once per version (encoded-answers.ts), which sets
 * Content-Encoding itself so this plugin leaves them alone. Request bodies are never
 * inflated: a small compressed body must not become a large one past the body limits.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ["br", "gzip"],
    customTypes: COMPRESSIBLE,
    threshold: 1024,
    globalDecompression: false,
  });
}
