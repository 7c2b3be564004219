import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** Text files worth compressing; images and fonts are compressed already. */
const TEXT = /\.(js|css|html|svg|json|txt)$/;
/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;

function* filesIn(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesIn(path);
    else yield path;
  }
}

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every text file of the
 * build, once, so the server sends them by Accept-Encoding without compressing per request
 * (@fastify/static `preCompressed`).
 */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "atelier-precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of filesIn(outDir)) {
        if (!TEXT.test(path)) continue;
        const bytes = readFileSync(path);
        if (bytes.byteLength < MIN_BYTES) continue;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
            },
          }),
        );
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}
