// Compiles the server (apps/server/src) to plain JavaScript in apps/server/dist: one ES module
// per entrypoint (all-in-one.js, web.js, worker.js, …) and the chunks they share, with
// @atelier/core bundled in and every other package left to node_modules (native modules,
// wasm and data files resolve there as under tsx). Run by `npm run build`.
import { cpSync, readdirSync, renameSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER = join(ROOT, "apps/server");
const OUT = join(SERVER, "dist");

/** Every bare import stays external except @atelier/core, which is TypeScript source. */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path === "@atelier/core" || args.path.startsWith("@atelier/core/")
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

// Every program in src/entrypoints (all-in-one, web, worker, …); the modules they share are not.
const SHARED = new Set(["startup.ts", "processes.ts", "worker-child.ts"]);
const entryPoints = readdirSync(join(SERVER, "src/entrypoints"))
  .filter((name) => name.endsWith(".ts") && !SHARED.has(name))
  .map((name) => join(SERVER, "src/entrypoints", name));

// Built beside dist/ and then put in its place, so a process starting meanwhile (or a test
// running beside this build) finds the whole of the old build, or none, never half of one.
const NEXT = join(SERVER, `dist.next-${process.pid}`);
const started = new Date();
rmSync(NEXT, { recursive: true, force: true });
process.on("exit", () => rmSync(NEXT, { recursive: true, force: true }));
await build({
  entryPoints,
  outdir: NEXT,
  // Every file sits directly in dist/, so `new URL("./migrations", import.meta.url)` in
  // db/client.ts finds dist/migrations as it finds src/db/migrations from the source.
  entryNames: "[name]",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  plugins: [externalPackages],
  logLevel: "warning",
});
cpSync(join(SERVER, "src/db/migrations"), join(NEXT, "migrations"), { recursive: true });
// The build's time is when it read the sources: an edit made while it ran is still newer.
utimesSync(join(NEXT, "all-in-one.js"), started, started);
for (let attempt = 1; ; attempt++) {
  rmSync(OUT, { recursive: true, force: true });
  try {
    renameSync(NEXT, OUT);
    break;
  } catch (error) {
    // Another build put its dist/ in place between the two steps: replace it.
    if (attempt === 3 || !["ENOTEMPTY", "EEXIST"].includes(error.code)) throw error;
  }
}
console.log(`Server built into apps/server/dist in ${Date.now() - started.getTime()} ms.`);
