// Runs one of the server's command-line programs (apps/server/src/entrypoints/<name>.ts):
// the compiled apps/server/dist/<name>.js when it is up to date with its sources (or the
// sources are absent, as in the container image), else the TypeScript source through tsx.
// Used by scripts/backup.mjs and scripts/restore.mjs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildReason, PARTS } from "./start.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function tsxInstalled() {
  try {
    createRequire(join(ROOT, "package.json")).resolve("tsx/package.json");
    return true;
  } catch {
    return false;
  }
}

export async function runServerCommand(name) {
  const compiled = join(ROOT, `apps/server/dist/${name}.js`);
  const source = join(ROOT, `apps/server/src/entrypoints/${name}.ts`);
  const built = existsSync(compiled) && buildReason(ROOT, PARTS.server) === null;
  if (built || (existsSync(compiled) && !tsxInstalled())) {
    process.setSourceMapsEnabled(true);
    await import(pathToFileURL(compiled).href);
    return;
  }
  const { status } = spawnSync(
    process.execPath,
    ["--import", "tsx", source, ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  process.exit(status ?? 1);
}
