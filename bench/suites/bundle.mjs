import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launchBrowser, openPage } from "../lib/browser.mjs";
import { row } from "../lib/report.mjs";
import { startServer } from "../lib/server.mjs";
import { sleep } from "../lib/stats.mjs";

/**
 * F1: the initial JavaScript of the editor ("/") in the production build (the one users get,
 * without the bench-only fixture entry), gzip level 9: the entry chunk and every chunk it and the editor route (`Editor.tsx`, loaded at once on "/") import statically,
 * from the Vite manifest: what must arrive before the editor can render. The browser check
 * beside it loads "/" fresh and signed out and sums every script fetched until the network
 * is quiet for 2 s without user action: the figure plus chunks the app starts itself
 * (journal recovery, warm-ups when idle). Chunks loaded on demand later are in neither.
 */

const gzipSize = (buffer) => gzipSync(buffer, { level: 9 }).length;

/** Files the entry and the (always loaded) Editor route import statically. */
function staticGraph(webRoot) {
  const manifest = JSON.parse(readFileSync(join(webRoot, ".vite/manifest.json"), "utf8"));
  const seen = new Set();
  const visit = (key) => {
    const entry = manifest[key];
    if (!entry || seen.has(entry.file)) return;
    seen.add(entry.file);
    for (const child of entry.imports ?? []) visit(child);
  };
  visit("index.html");
  visit("src/features/editor/Editor.tsx");
  const files = [...seen].filter((file) => file.endsWith(".js"));
  const bytes = files.reduce((sum, file) => sum + gzipSize(readFileSync(join(webRoot, file))), 0);
  return { files, bytes };
}

export async function runBundle(ctx) {
  ctx.log("F1…");
  return ctx.guard(
    "F1",
    async () => {
      const server = await startServer({ webRoot: ctx.productionRoot });
      const browser = await launchBrowser();
      ctx.chromiumVersion ??= browser.version();
      try {
        const { page, close } = await openPage(browser);
        const scripts = new Map();
        let lastResponse = Date.now();
        page.on("response", async (response) => {
          lastResponse = Date.now();
          const url = new URL(response.url());
          const type = response.headers()["content-type"] ?? "";
          if (!url.pathname.endsWith(".js") && !type.includes("javascript")) return;
          scripts.set(
            url.pathname,
            response.body().catch(() => Buffer.alloc(0)),
          );
        });
        await page.goto(server.url);
        await page.waitForSelector(".react-flow");
        while (Date.now() - lastResponse < 2000) await sleep(250);
        const files = {};
        for (const [path, body] of scripts) files[path] = gzipSize(await body);
        await close();
        const total = Object.values(files).reduce((sum, size) => sum + size, 0);
        const graph = staticGraph(ctx.productionRoot);
        const largest = Object.entries(files)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([path, size]) => `${path.split("/").pop()} ${(size / 1024).toFixed(0)}`)
          .join(", ");
        const initial = graph.files.map((file) => `/${file}`);
        const extra = Object.keys(files).filter((path) => !initial.includes(path));
        const missing = initial.filter((path) => !(path in files));
        return [
          row({
            id: "F1",
            measure: "initial JS of the editor, gzipped",
            values: [graph.bytes / 1024],
            target: { op: "<=", value: 160 },
            unit: "KB",
            note: `${graph.files.length} files (entry + editor route, static imports); the page fetched ${(total / 1024).toFixed(0)} KB in ${scripts.size} files before going quiet (${extra.length} more started by the app: ${extra
              .map((path) =>
                path
                  .split("/")
                  .pop()
                  .replace(/-[\w-]{8}\.js$/, ""),
              )
              .join(
                ", ",
              )}); largest fetched: ${largest} KB${missing.length ? `; not fetched: ${missing.join(", ")}` : ""}`,
            details: { staticGraph: graph, fetched: files, fetchedBytes: total },
          }),
        ];
      } finally {
        await browser.close();
        await server.stop();
      }
    },
    ctx,
  );
}
