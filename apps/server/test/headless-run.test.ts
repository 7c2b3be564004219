import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunView, TERMINAL_RUN_STATUSES } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerClient } from "./helpers/bearer.ts";
import { TestClient } from "./helpers/client.ts";
import { chainWorkflow } from "./helpers/runs.ts";
import { runScript, type ScriptResult } from "./helpers/script.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/** The script the README's "Run a workflow from a script" section runs, unchanged. */
const SCRIPT = fileURLToPath(new URL("../../../scripts/examples/run-workflow.sh", import.meta.url));
const README = fileURLToPath(new URL("../../../README.md", import.meta.url));

const OVERRIDE = { text: { text: "a harbour at dawn" } };

/** Loose magic-byte checks by file extension: the local provider's real media files. */
const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  ".png": (b) => b.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")),
  ".jpg": (b) => b[0] === 0xff && b[1] === 0xd8,
  ".jpeg": (b) => b[0] === 0xff && b[1] === 0xd8,
  ".webp": (b) => b.subarray(0, 4).toString("latin1") === "RIFF",
  ".webm": (b) => b.subarray(0, 4).equals(Buffer.from("1a45dfa3", "hex")),
  ".mp4": (b) => b.subarray(4, 8).toString("latin1") === "ftyp",
  ".wav": (b) => b.subarray(0, 4).toString("latin1") === "RIFF",
  ".glb": (b) => b.subarray(0, 4).toString("latin1") === "glTF",
};

type RunAnswer = { run: RunView };

const runIdOf = (result: ScriptResult) =>
  /run (\S+) (?:queued|running|paused)/.exec(result.stderr)?.[1];

describe("running a saved workflow from a script with an API token (the README's script)", () => {
  let server: TestServer;
  let client: TestClient;
  let workflowId: string;
  let token: string;
  let tokenId: string;
  let out: string;
  const env = (extra: Record<string, string> = {}) => ({
    ATELIER_URL: server.url,
    ATELIER_TOKEN: token,
    ATELIER_TIMEOUT: "60",
    ...extra,
  });
  const headless = () => bearerClient(server.url, token);

  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await server.ctx.work({ concurrency: 4 });
    client = new TestClient(server.url);
    await client.signUp("scripted@example.com");
    const saved = await client.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Harbour",
      data: chainWorkflow("Harbour"),
    });
    expect(saved.status).toBe(201);
    workflowId = saved.body.workflow.id;
    const created = await client.json<{ id: string; token: string }>("POST", "/api/tokens", {
      name: "Script",
    });
    expect(created.status).toBe(201);
    ({ id: tokenId, token } = created.body);
    out = mkdtempSync(join(tmpdir(), "atelier-headless-"));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  });

  it("is the script the README documents, with its calls", () => {
    const readme = readFileSync(README, "utf8");
    const section = readme.slice(readme.indexOf("## Run a workflow from a script"));
    expect(section.length).toBeLessThan(readme.length);
    for (const text of [
      "scripts/examples/run-workflow.sh",
      "Authorization: Bearer",
      "POST",
      "/api/runs",
      "/api/queue/events",
      "/api/docs",
      "/api/openapi.json",
    ])
      expect(section, text).toContain(text);
  });

  it("runs it with an override, following the event stream, and saves every output file", async () => {
    const dir = join(out, "all");
    const result = await runScript(SCRIPT, [workflowId, JSON.stringify(OVERRIDE), dir], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("polling instead");
    expect(result.stderr).toMatch(/run \S+ completed\n/);

    const runId = runIdOf(result);
    expect(runId).toBeTruthy();
    const read = await headless()<RunAnswer>("GET", `/api/runs/${runId}`);
    expect(read.status).toBe(200);
    const { run } = read.body;
    expect(run.workflowId).toBe(workflowId);
    expect(run.inputs).toEqual(OVERRIDE);
    expect(run.status).toBe("completed");
    expect(run.nodes.map((node) => [node.id, node.status])).toEqual([
      ["image", "completed"],
      ["video", "completed"],
      ["upscale", "completed"],
    ]);

    // Every output URL of every node was downloaded: one file each, real media bytes.
    const urls = run.nodes.flatMap((node) =>
      Object.values(node.outputs ?? {}).filter(
        (value): value is string => typeof value === "string" && /^https?:\/\//.test(value),
      ),
    );
    const files = result.stdout.trim().split("\n");
    expect(files).toHaveLength(new Set(urls).size);
    expect(result.stderr).toContain(`done: ${files.length} file(s) saved in ${dir}`);
    expect(files.map((file) => file.slice(dir.length + 1))).toEqual(
      expect.arrayContaining(["image-imageUrl.png", expect.stringMatching(/^upscale-videoUrl\./)]),
    );
    for (const file of files) {
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).size, file).toBeGreaterThan(0);
      const check = SIGNATURES[extname(file).toLowerCase()];
      expect(check, `a known media type: ${file}`).toBeDefined();
      expect(check?.(readFileSync(file)), `signature of ${file}`).toBe(true);
    }
    // Its steps' jobs answer the token too.
    const image = run.nodes.find((node) => node.id === "image");
    const job = await headless()<{ status: string }>("POST", "/api/queue/status", {
      requestId: image?.requestId,
    });
    expect(job).toMatchObject({ status: 200, body: { status: "COMPLETED" } });
  });

  it("polls instead with --poll, and runs only what a node needs with --up-to", async () => {
    const dir = join(out, "poll");
    const inputs = { text: { text: "a harbour at noon" } };
    const result = await runScript(
      SCRIPT,
      ["--poll", "--interval", "1", "--up-to", "image", workflowId, JSON.stringify(inputs), dir],
      env(),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n")).toEqual([join(dir, "image-imageUrl.png")]);
    const png = readFileSync(join(dir, "image-imageUrl.png"));
    expect(SIGNATURES[".png"]?.(png)).toBe(true);
    const run = (await headless()<RunAnswer>("GET", `/api/runs/${runIdOf(result)}`)).body.run;
    expect(run).toMatchObject({ status: "completed", target: { upTo: "image" }, inputs });
    expect(run.nodes.map((node) => node.id)).toEqual(["image"]);
  });

  it("exits 1 naming the run's state when it does not complete", async () => {
    const api = headless();
    // A paused queue holds the run until it is cancelled from elsewhere.
    expect((await api("PUT", "/api/queue/state", { paused: true })).status).toBe(200);
    try {
      const finished = runScript(SCRIPT, [workflowId, "", join(out, "cancelled")], env());
      let run: RunView | undefined;
      for (let tries = 0; !run && tries < 200; tries++) {
        const queue = await api<{ runs: RunView[] }>("GET", "/api/runs");
        run = queue.body.runs.find((entry) => entry.workflowId === workflowId);
        if (!run) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(run).toBeDefined();
      expect((await api("POST", `/api/runs/${run?.id}/cancel`, {})).status).toBe(200);
      const result = await finished;
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`run ${run?.id} cancelled: image: cancelled`);
    } finally {
      await api("PUT", "/api/queue/state", { paused: false });
    }
  });

  it("refuses bad input before anything is sent", async () => {
    const bad = await runScript(SCRIPT, [workflowId, "{not json"], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("INPUTS_JSON is not JSON");
    const none = await runScript(SCRIPT, [], env());
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no workflow id");
    // The server's own refusal is passed on with its message.
    const refused = await runScript(
      SCRIPT,
      [workflowId, JSON.stringify({ image: { numImages: "two" } })],
      env(),
    );
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      'POST /api/runs: 400 Invalid parameter numImages of "image": Expected a number',
    );
  });

  it("streams the run's events to a plain HTTP client holding the token", async () => {
    const controller = new AbortController();
    const stream = await fetch(new URL("/api/queue/events", server.url), {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = stream.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) throw new Error("no event stream");
    const events: { event: string; data: string }[] = [];
    let buffer = "";
    const next = async () => {
      for (;;) {
        const parts = buffer.split("\n\n");
        if (parts.length > 1) {
          buffer = parts.slice(1).join("\n\n");
          const lines = (parts[0] ?? "").split("\n");
          const field = (name: string) =>
            lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? "";
          return { event: field("event"), data: field("data") };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("event stream ended");
        buffer += value;
      }
    };
    try {
      expect((await next()).event).toBe("ready");
      const started = await headless()<RunAnswer>("POST", "/api/runs", {
        workflowId,
        target: { upTo: "image" },
        inputs: { text: { text: "a harbour at midnight" } },
      });
      expect(started.status).toBe(202);
      const id = started.body.run.id;
      for (;;) {
        const event = await next();
        if (event.event !== "run") continue;
        const run = JSON.parse(event.data) as RunView;
        if (run.id !== id) continue;
        events.push(event);
        if ((TERMINAL_RUN_STATUSES as readonly string[]).includes(run.status)) {
          expect(run.status).toBe("completed");
          expect(String(run.nodes[0]?.outputs?.imageUrl)).toMatch(/\/api\/media\/file\//);
          break;
        }
      }
    } finally {
      controller.abort();
    }
    expect(events.length).toBeGreaterThanOrEqual(1);
  });

  it("stops working once the token is revoked: 401 Not authenticated", async () => {
    const runs = await headless()<{ runs: RunView[] }>("GET", `/api/workflows/${workflowId}/runs`);
    const runId = runs.body.runs[0]?.id;
    expect(runId).toBeTruthy();
    const revoked = await client.json("DELETE", `/api/tokens/${tokenId}`);
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });

    const result = await runScript(SCRIPT, [workflowId, JSON.stringify(OVERRIDE)], env());
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`POST /api/runs: 401 ${"Not authenticated"}`);
    expect(result.stdout).toBe("");

    for (const path of [`/api/runs/${runId}`, "/api/queue/events"]) {
      const answer = await headless()("GET", path);
      expect(answer, path).toMatchObject({
        status: 401,
        body: { error: "Not authenticated" },
      });
    }
  });
});
