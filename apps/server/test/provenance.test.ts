import { type RunView, serializeWorkflow } from "@atelier/core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectUpload } from "../src/storage/inspect.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { itxtFields, pngChunks } from "./helpers/png-chunks.ts";
import { waitForRun } from "./helpers/runs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

const PROMPT = "a lighthouse at dusk, «ünïcode» & <tags>";

/** One FLUX node with its own prompt and seed, asked for a PNG. */
function fluxWorkflow() {
  const values = { prompt: PROMPT, seed: 42, outputFormat: "png", numImages: 1, raw: true };
  const node = {
    id: "image",
    type: "flux-pro",
    position: { x: 0, y: 0 },
    data: {
      label: "image",
      inputValues: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])),
    },
  };
  return serializeWorkflow(
    { nodes: [node], edges: [], metadata: { name: "Provenance" } },
    { now: Date.UTC(2026, 10, 1) },
  );
}

describe("provenance on every generated file", () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await server.ctx.work({ concurrency: 2 });
    client = new TestClient(server.url);
    await client.signUp("provenance@example.com");
  }, 60_000);
  afterAll(() => server.close());

  it("a PNG from a run of a saved workflow carries an `atelier` iTXt chunk with how it was made", async () => {
    const created = await client.json<{ workflow: { id: string; updated_at: string } }>(
      "POST",
      "/api/workflows",
      { name: "Provenance", data: fluxWorkflow() },
    );
    expect(created.status).toBe(201);
    const { id: workflowId, updated_at: basedOn } = created.body.workflow;
    const started = await client.json<{ run: RunView }>("POST", "/api/runs", {
      workflowId,
      basedOn,
      target: { upTo: "image" },
    });
    expect(started.status).toBe(202);
    const before = Date.now();
    const run = await waitForRun(client, started.body.run.id);
    expect(run.status).toBe("completed");
    const url = String(run.nodes[0]?.outputs?.imageUrl);

    const response = await fetch(url);
    expect(response.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await response.arrayBuffer());
    const chunks = pngChunks(png);
    expect(chunks.every((chunk) => chunk.crcOk)).toBe(true);
    expect(chunks.map((chunk) => chunk.type).slice(0, 2)).toEqual(["IHDR", "iTXt"]);
    expect(chunks.at(-1)?.type).toBe("IEND");
    const texts = chunks.filter((chunk) => chunk.type === "iTXt").map((c) => itxtFields(c.data));
    expect(texts.map((text) => [text.keyword, text.compressed])).toEqual([["atelier", false]]);
    const provenance = JSON.parse(texts[0]?.text ?? "");
    expect(Object.keys(provenance).sort()).toEqual(
      [
        "model",
        "provider",
        "endpoint",
        "parameters",
        "seed",
        "prompt",
        "runId",
        "workflowId",
        "version",
        "createdAt",
        "cost",
      ].sort(),
    );
    expect(provenance).toMatchObject({
      model: "flux-pro",
      provider: "local",
      endpoint: "local/flux-pro",
      seed: 42,
      prompt: PROMPT,
      runId: run.id,
      workflowId,
      version: basedOn,
      // Done on this server: it cost nothing.
      cost: 0,
    });
    expect(provenance.parameters).toMatchObject({
      outputFormat: "png",
      numImages: 1,
      raw: true,
    });
    expect(provenance.parameters).not.toHaveProperty("prompt");
    expect(provenance.parameters).not.toHaveProperty("seed");
    expect(Date.parse(provenance.createdAt)).toBeGreaterThanOrEqual(before - 60_000);

    // Still a valid PNG that passes the upload inspection, and no sidecar for it.
    expect((await sharp(png).metadata()).format).toBe("png");
    await expect(inspectUpload(png, "png")).resolves.toMatchObject({ mimeType: "image/png" });
    expect((await fetch(`${url}.atelier.json`)).status).toBe(404);
  });

  it("a direct generation has no run or version: those are null", async () => {
    const answer = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "solo",
      inputs: { prompt: "wired prompt" },
      params: { outputFormat: "png" },
    });
    const job = await waitForJob(client, answer.body.requestId);
    const png = Buffer.from(await (await fetch(String(job.outputs?.imageUrl))).arrayBuffer());
    const text = pngChunks(png).find((chunk) => chunk.type === "iTXt");
    const provenance = JSON.parse(itxtFields(text?.data ?? Buffer.alloc(0)).text);
    expect(provenance).toMatchObject({
      model: "flux-pro",
      prompt: "wired prompt",
      seed: null,
      runId: null,
      workflowId: null,
      version: null,
      cost: 0,
    });
  });

  it("video and audio results get a sidecar JSON served next to them, inert", async () => {
    const cases = [
      ["seedance", { prompt: "waves", seed: 7, duration: 2 }, "videoUrl", "video/webm"],
      ["elevenlabs-sfx", { prompt: "a door creaks", durationSeconds: 1 }, "audioUrl", "audio/wav"],
    ] as const;
    for (const [model, params, key, type] of cases) {
      const answer = await client.json<{ requestId: string }>("POST", `/api/generate/${model}`, {
        nodeId: `n-${model}`,
        inputs: {},
        params,
      });
      expect(answer.status, model).toBe(202);
      const job = await waitForJob(client, answer.body.requestId);
      expect(job.status, `${model}: ${job.error}`).toBe("COMPLETED");
      const url = String(job.outputs?.[key]);
      const media = await fetch(url);
      expect(media.headers.get("content-type"), model).toBe(type);
      const sidecar = await fetch(`${url}.atelier.json`);
      expect(sidecar.status, model).toBe(200);
      expect(sidecar.headers.get("content-type"), model).toBe("application/json");
      expect(sidecar.headers.get("x-content-type-options")).toBe("nosniff");
      expect(sidecar.headers.get("content-security-policy")).toMatch(/sandbox/);
      const provenance = await sidecar.json();
      expect(provenance, model).toMatchObject({
        model,
        provider: "local",
        prompt: params.prompt,
        seed: "seed" in params ? params.seed : null,
        runId: null,
        version: null,
        cost: 0,
      });
      expect(provenance.parameters).not.toHaveProperty("prompt");
    }
    // Deleting the file deletes its sidecar with it.
    const listed = await client.json<{ media: { id: string; url: string; file_path: string }[] }>(
      "GET",
      "/api/media?workflowId=temporary",
    );
    const video = listed.body.media.find((row) => row.file_path.endsWith(".webm"));
    expect(video).toBeDefined();
    const removed = await client.json("DELETE", `/api/media/${video?.id}`);
    expect(removed.status).toBe(200);
    expect((await fetch(`${video?.url}.atelier.json`)).status).toBe(404);
    expect(await server.ctx.store.get(`${video?.file_path}.atelier.json`)).toBeNull();
    // A sidecar is served only for a file the manifest knows.
    const stranger = await fetch(
      `${server.url}/api/media/file/nobody/temporary/x.webm.atelier.json`,
    );
    expect(stranger.status).toBe(404);
  });
});
