// `npm start`, `npm run start:web`, `npm run start:worker`: builds what is missing or older
// than its sources, then runs the compiled server (apps/server/dist) in this process with
// plain node. Usage: node scripts/start.mjs [all-in-one|web|worker]
// Plain Node and nothing else: the container image runs it with production dependencies only.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import module from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The two builds `npm start` needs: the file each writes last (its time is the build's) and
 * what it is built from. package-lock.json is left out: every `npm install` rewrites it.
 */
export const PARTS = {
  web: {
    label: "the web app",
    script: "build:web",
    // Not vite itself: better-auth's optional peers bring vite into `--omit=dev` installs.
    tool: { from: "apps/web/package.json", name: "@vitejs/plugin-react" },
    output: "apps/web/dist/index.html",
    sources: [
      "apps/web/src",
      "apps/web/public",
      "apps/web/index.html",
      "apps/web/vite.config.ts",
      "apps/web/precompress.ts",
      "apps/web/package.json",
      "packages/core/src",
      "packages/core/package.json",
    ],
  },
  server: {
    label: "the server",
    script: "build:server",
    tool: { from: "package.json", name: "esbuild" },
    output: "apps/server/dist/all-in-one.js",
    sources: [
      "apps/server/src",
      "apps/server/package.json",
      "packages/core/src",
      "packages/core/package.json",
      "scripts/build-server.mjs",
    ],
  },
};

function modified(path) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** The first file under `path` (a file or a folder) modified after `time`, or null. */
function newerThan(path, time) {
  const stat = modified(path);
  if (!stat) return null;
  if (!stat.isDirectory()) return stat.mtimeMs > time ? path : null;
  for (const name of readdirSync(path)) {
    const found = newerThan(join(path, name), time);
    if (found) return found;
  }
  return null;
}

/**
 * Why `part` must be built in the checkout at `root` ("no build yet", "<file> changed since
 * the last build"), or null when its build is newer than every one of its sources (sources
 * that are absent, as in the container image, count as unchanged).
 */
export function buildReason(root, part) {
  const output = modified(join(root, part.output));
  if (!output) return "no build yet";
  for (const source of part.sources) {
    const found = newerThan(join(root, source), output.mtimeMs);
    if (found) return `${found.slice(join(root, "/").length)} changed since the last build`;
  }
  return null;
}

/**
 * Whether `tool` (a dev dependency) is installed in `root`, i.e. not an `--omit=dev` install:
 * in a node_modules folder on the way up from its package, as Node would find it.
 */
function installed(root, tool) {
  for (let folder = dirname(join(root, tool.from)); ; folder = dirname(folder)) {
    if (existsSync(join(folder, "node_modules", tool.name, "package.json"))) return true;
    if (dirname(folder) === folder) return false;
  }
}

/** Runs `npm run <script>` in `root`: through the npm running this script, else the one on PATH. */
function npmRun(root, script) {
  const npm = process.env.npm_execpath;
  const viaNode = Boolean(npm && /\.c?js$/.test(npm));
  const { status } = spawnSync(
    viaNode ? process.execPath : (npm ?? "npm"),
    viaNode ? [npm, "run", script] : ["run", script],
    { cwd: root, stdio: "inherit", shell: process.platform === "win32" && !viaNode },
  );
  return status ?? 1;
}

async function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const entries = ["all-in-one", "web", "worker"];
  const entry = process.argv[2] ?? "all-in-one";
  if (!entries.includes(entry)) {
    console.error(`Unknown process "${entry}": use ${entries.join(", ")}.`);
    process.exit(64);
  }
  // The worker serves no pages: it needs the server build only.
  const needed = entry === "worker" ? [PARTS.server] : [PARTS.web, PARTS.server];
  const stale = needed
    .map((part) => ({ part, reason: buildReason(root, part) }))
    .filter(({ reason }) => reason !== null);
  const what = stale.map(({ part, reason }) => `${part.label} (${reason})`).join(" and ");
  if (stale.length > 0 && stale.every(({ part }) => installed(root, part.tool))) {
    console.log(`Building ${what}…`);
    const status = npmRun(root, stale.length === 2 ? "build" : stale[0].part.script);
    if (status !== 0) process.exit(status);
  } else if (stale.some(({ reason }) => reason === "no build yet")) {
    console.error(
      "Atelier is not built and its build tools are not installed: run `npm run build` before `npm ci --omit=dev`.",
    );
    process.exit(1);
  } else if (stale.length > 0) {
    console.warn(
      `Starting the build as it is: ${what}, but the build tools are not installed (npm ci --omit=dev).`,
    );
  }
  // Node 22.1 and later keep the compiled code of the server and its packages between starts
  // (in the system's temporary folder): about a second less from the second start on. Source
  // maps (dist/*.js.map) stay off: Node would read every package's at start, half a second
  // more. NODE_OPTIONS=--enable-source-maps turns them on, for stack traces in TypeScript.
  module.enableCompileCache?.();
  await import(pathToFileURL(join(root, `apps/server/dist/${entry}.js`)).href);
}

// Run as a program, not when a test imports it (argv[1] may name it through a symlink).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
