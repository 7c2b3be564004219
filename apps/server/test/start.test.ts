import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuildPart, buildReason, PARTS } from "../../../scripts/start.mjs";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const START = join(ROOT, "scripts/start.mjs");

/** Writes `text` to `root/path`, folders and all, and dates it `secondsAgo` in the past. */
function write(root: string, path: string, text: string, secondsAgo: number) {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, time, time);
}

describe("whether a part needs building", () => {
  const part: BuildPart = {
    label: "the server",
    script: "build:server",
    tool: { from: "package.json", name: "esbuild" },
    output: "dist/main.js",
    sources: ["src", "package.json", "not-here"],
  };

  it("builds when there is no build, and names the changed file when a source is newer", () => {
    const root = mkdtempSync(join(tmpdir(), "atelier-stale-"));
    write(root, "src/deep/a.ts", "a", 300);
    write(root, "package.json", "{}", 300);
    expect(buildReason(root, part)).toBe("no build yet");
    write(root, "dist/main.js", "built", 200);
    expect(buildReason(root, part)).toBeNull();
    write(root, "src/deep/a.ts", "edited", 100);
    expect(buildReason(root, part)).toBe("src/deep/a.ts changed since the last build");
    write(root, "dist/main.js", "rebuilt", 50);
    expect(buildReason(root, part)).toBeNull();
    write(root, "package.json", '{"name":"x"}', 10);
    expect(buildReason(root, part)).toBe("package.json changed since the last build");
  });

  it("checks the folders each build is made of", () => {
    expect(PARTS.server.sources).toEqual(
      expect.arrayContaining(["apps/server/src", "packages/core/src"]),
    );
    expect(PARTS.web.sources).toEqual(
      expect.arrayContaining(["apps/web/src", "apps/web/index.html", "packages/core/src"]),
    );
    // Their build tools are where a dev install puts them (else npm start would not build).
    for (const part of [PARTS.web, PARTS.server])
      expect(existsSync(join(ROOT, "node_modules", part.tool.name, "package.json"))).toBe(true);
  });
});

/**
 * A checkout of its own for scripts/start.mjs: its build scripts and its "server" are stand-ins
 * that say what ran; `tools` puts the build tools' package.json files in node_modules.
 */
function checkout(tools: boolean) {
  const root = mkdtempSync(join(tmpdir(), "atelier-start-"));
  mkdirSync(join(root, "scripts"));
  copyFileSync(START, join(root, "scripts/start.mjs"));
  const entry = 'console.log("new server started");';
  const builder = [
    'import { mkdirSync, writeFileSync } from "node:fs";',
    'mkdirSync("apps/server/dist", { recursive: true });',
    `writeFileSync("apps/server/dist/all-in-one.js", ${JSON.stringify(entry)});`,
    'console.log("server built");',
  ].join("\n");
  write(root, "build-server.mjs", builder, 600);
  write(
    root,
    "package.json",
    JSON.stringify({ type: "module", scripts: { "build:server": "node build-server.mjs" } }),
    600,
  );
  write(root, "apps/server/src/main.ts", "", 600);
  write(root, "apps/web/dist/index.html", "<!doctype html>", 500);
  if (tools)
    for (const tool of ["esbuild", "@vitejs/plugin-react"])
      write(root, `node_modules/${tool}/package.json`, `{"name":"${tool}"}`, 600);
  const start = () => {
    const run = spawnSync(process.execPath, [join(root, "scripts/start.mjs")], {
      cwd: root,
      encoding: "utf8",
    });
    return { status: run.status, output: run.stdout + run.stderr };
  };
  return { root, start };
}

describe("npm start (scripts/start.mjs)", () => {
  it("builds what is missing or stale, and nothing when nothing changed", () => {
    const { root, start } = checkout(true);
    const first = start();
    expect(first.status, first.output).toBe(0);
    expect(first.output).toContain("Building the server (no build yet)…");
    expect(first.output).toContain("server built");
    expect(first.output).toContain("new server started");

    const second = start();
    expect(second.status, second.output).toBe(0);
    expect(second.output).not.toContain("Building");
    expect(second.output).not.toContain("server built");
    expect(second.output).toContain("new server started");

    write(root, "apps/server/src/main.ts", "// edited", 0);
    const third = start();
    expect(third.output).toContain(
      "Building the server (apps/server/src/main.ts changed since the last build)…",
    );
    expect(third.output).toContain("server built");
  }, 60_000);

  it("says to build before a production install when there is no build to start", () => {
    const { start } = checkout(false);
    const run = start();
    expect(run.status).toBe(1);
    expect(run.output).toBe(
      "Atelier is not built and its build tools are not installed: run `npm run build` before `npm ci --omit=dev`.\n",
    );
  });

  it("starts a stale build as it is when the build tools are not installed", () => {
    const { root, start } = checkout(false);
    write(root, "apps/server/dist/all-in-one.js", "console.log('old server started');", 550);
    write(root, "apps/server/src/main.ts", "// edited since", 100);
    const run = start();
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain(
      "Starting the build as it is: the server (apps/server/src/main.ts changed since the last build)",
    );
    expect(run.output).toContain("old server started");
  });
});

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("the compiled server", () => {
  beforeAll(() => {
    // About a second with esbuild; only when the build is missing or older than the sources.
    if (buildReason(ROOT, PARTS.server) === null) return;
    const built = spawnSync(process.execPath, [join(ROOT, "scripts/build-server.mjs")], {
      cwd: ROOT,
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`server build failed:\n${built.stdout}${built.stderr}`);
  }, 60_000);

  it("starts with plain node (no TypeScript loader) and answers /api/health", async () => {
    const folder = mkdtempSync(join(tmpdir(), "atelier-dist-"));
    writeFileSync(join(folder, "index.html"), "<!doctype html><title>built shell</title>");
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: join(folder, "data"),
      WEB_ROOT: folder,
      LOG_LEVEL: "warn",
    };
    for (const name of ["DATABASE_URL", "ENV_FILE", "NODE_OPTIONS"]) delete env[name];
    const child = spawn(process.execPath, [join(ROOT, "apps/server/dist/all-in-one.js")], {
      cwd: folder,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    const exited = once(child, "exit");
    try {
      const deadline = Date.now() + 120_000;
      let health: Response | null = null;
      while (!health && Date.now() < deadline && child.exitCode === null) {
        health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        if (!health) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(health?.status, output).toBe(200);
      expect(await health?.json()).toMatchObject({ ok: true });
      const shell = await fetch(`http://127.0.0.1:${port}/`);
      expect(await shell.text()).toContain("built shell");
    } finally {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    }
  }, 150_000);
});
