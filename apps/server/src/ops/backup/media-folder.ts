import { cp, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Files and bytes under a folder (0 and 0 when it does not exist). */
export async function folderTotals(dir: string): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let files = 0;
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

/**
 * Copies the local media folder whole. Stored files are never rewritten in place, so a copy
 * taken while a PostgreSQL-backed server runs holds every file its database dump names
 * (the dump is taken first); later uploads are simply not in it.
 */
export async function copyMediaFolder(
  from: string,
  to: string,
): Promise<{ files: number; bytes: number }> {
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true, preserveTimestamps: true, errorOnExist: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    },
  );
  return folderTotals(to);
}
