import { createReadStream } from "node:fs";
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { assertSafeKey, type BlobStore } from "./blob-store.ts";

/** Files under `root/<bucket>/…` on the local disk (the embedded default). */
export function createFsStore(root: string, bucket: string): BlobStore {
  const base = join(root, bucket);
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(base, ...key.split("/"));
  };
  return {
    kind: "fs",
    async put(key, body) {
      const path = pathOf(key);
      // The directory usually exists (a save's batches share one): make it only when missing.
      await writeFile(path, body, { flag: "wx" }).catch(async (error) => {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, body, { flag: "wx" });
      });
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        return { body: createReadStream(path), size: info.size };
      } catch {
        return null;
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => rm(pathOf(key), { force: true })));
    },
    async list(prefix) {
      // The same key rules as put/get: a prefix of `..` parts could reach other folders.
      assertSafeKey(prefix.replace(/\/$/, ""));
      const start = join(base, ...prefix.split("/").filter(Boolean));
      try {
        const entries = await readdir(start, { recursive: true, withFileTypes: true });
        return entries
          .filter((entry) => entry.isFile())
          .map((entry) => relative(base, join(entry.parentPath, entry.name)).split(sep).join("/"));
      } catch {
        return [];
      }
    },
    async ping() {
      await mkdir(base, { recursive: true });
      return true;
    },
  };
}
