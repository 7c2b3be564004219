import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PROVIDER_RUNS } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildLumaInput,
  LUMA_ENDPOINTS,
  LUMA_USER_MESSAGES,
  parseLumaCallback,
} from "../src/providers/luma/luma-provider.ts";
import { type NodeRun, ProviderError } from "../src/providers/provider.ts";
import {
  completed,
  luma,
  provider,
  run,
  submit,
  useFakeLuma,
  VIDEO,
  videoPorts,
} from "./helpers/luma-harness.ts";

// Request bodies, happy paths and callbacks; faults live in luma-provider-faults.test.ts.
useFakeLuma();

describe("luma buildInput", () => {
  const a = "https://media.example/a.png";
  const b = "https://media.example/b.png";
  const v = "https://media.example/v.mp4";
  const ray = { model: "ray-2", aspect_ratio: "16:9", resolution: "540p", duration: "5s" };
  const modify = { generation_type: "modify_video", model: "ray-2" };

  it("uses the catalogue's luma variants, all of them endpoints we speak", () => {
    const variants = ["luma-ray", "luma-modify", "luma-reframe"].map(
      (type) => PROVIDER_RUNS[type]?.variants?.luma,
    );
    expect(variants).toEqual([VIDEO, "generations/video/modify", "generations/video/reframe"]);
    for (const e of variants) expect(LUMA_ENDPOINTS).toContain(e);
  });

  it.each<[string, NodeRun, Record<string, unknown>]>([
    [
      "ray, text only",
      run("luma-ray", VIDEO, {}, { prompt: "a fox" }),
      { ...ray, prompt: "a fox", loop: false },
    ],
    [
      "ray flash, both keyframes, wired prompt wins",
      run(
        "luma-ray",
        VIDEO,
        { prompt: "wired", image: a, endFrame: b },
        { prompt: "typed", model: "ray-2-flash", duration: "9s", resolution: "720p", loop: true },
      ),
      {
        prompt: "wired",
        model: "ray-flash-2",
        aspect_ratio: "16:9",
        resolution: "720p",
        duration: "9s",
        loop: true,
        keyframes: { frame0: { type: "image", url: a }, frame1: { type: "image", url: b } },
      },
    ],
    [
      "ray, end frame only",
      run("luma-ray", VIDEO, { endFrame: b }, { prompt: "p", aspectRatio: "9:21" }),
      {
        ...ray,
        prompt: "p",
        aspect_ratio: "9:21",
        loop: false,
        keyframes: { frame1: { type: "image", url: b } },
      },
    ],
    [
      "modify, no prompt, with a first frame",
      run("luma-modify", "generations/video/modify", { media: v, image: a }, { mode: "adhere_2" }),
      { ...modify, mode: "adhere_2", media: { url: v }, first_frame: { url: a } },
    ],
    [
      "modify from video1",
      run("luma-modify", "generations/video/modify", { video1: v }, { prompt: "noir" }),
      { ...modify, prompt: "noir", mode: "flex_1", media: { url: v } },
    ],
    [
      "video reframe",
      run("luma-reframe", "generations/video/reframe", { media: v }, { aspectRatio: "1:1" }),
      { generation_type: "reframe_video", model: "ray-2", aspect_ratio: "1:1", media: { url: v } },
    ],
    [
      "photon with every reference",
      run(
        "luma-photon",
        "generations/image",
        { image: a, referenceImages: [a, b], styleReference: b },
        { prompt: "p", model: "photon-flash-1", strength: 0.5 },
      ),
      {
        prompt: "p",
        model: "photon-flash-1",
        aspect_ratio: "1:1",
        image_ref: [{ url: a }, { url: b }],
        style_ref: [{ url: b }],
        modify_image_ref: { url: a, weight: 0.5 },
      },
    ],
    [
      "photon, text only",
      run("luma-photon", "generations/image", {}, { prompt: "p" }),
      { prompt: "p", model: "photon-1", aspect_ratio: "1:1" },
    ],
    [
      "image reframe",
      run("reframe", "generations/image/reframe", { image: a }, { aspectRatio: "21:9" }),
      {
        generation_type: "reframe_image",
        model: "photon-1",
        aspect_ratio: "21:9",
        media: { url: a },
      },
    ],
  ])("%s", (_name, nodeRun, expected) => {
    expect(buildLumaInput(nodeRun)).toEqual(expected);
    expect(provider().buildInput(nodeRun)).toEqual(expected);
  });

  it("refuses fal endpoints and a modify without media", () => {
    const fal = run("luma-ray", "fal-ai/luma-dream-machine/ray-2");
    expect(() => buildLumaInput(fal)).toThrow(ProviderError);
    const noMedia = run("luma-modify", "generations/video/modify");
    expect(() => buildLumaInput(noMedia)).toThrow(
      expect.objectContaining({
        kind: "fatal",
        options: { userMessage: LUMA_USER_MESSAGES.noMedia },
      }),
    );
  });

  it("sends the body as built, plus callback_url only when there is a webhook URL", async () => {
    const input = buildLumaInput(run("luma-ray", VIDEO, { image: a }, { prompt: "p" }));
    const webhookUrl = "https://atelier.example/api/hooks/luma/tok";
    const { requestId } = await provider().submit({
      endpoint: VIDEO,
      input,
      webhookUrl,
      idempotencyKey: "k",
    });
    expect(luma.requests.at(-1)).toEqual({
      id: requestId,
      endpoint: VIDEO,
      body: { ...input, callback_url: webhookUrl },
      callbackUrl: webhookUrl,
    });
    await submit(provider(), input);
    expect(luma.requests.at(-1)?.body).toEqual(input);
  });
});

describe("luma provider: happy path", () => {
  it("creates once, follows the states, and maps the video asset", async () => {
    const p = provider();
    const before = luma.counters.creates[VIDEO] ?? 0;
    luma.script("next", [
      { state: "queued" },
      { state: "queued" },
      { state: "dreaming" },
      { state: "completed" },
    ]);
    const { requestId } = await submit(p);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await p.status(VIDEO, requestId)).status);
    expect(seen).toEqual(["IN_QUEUE", "IN_QUEUE", "IN_PROGRESS", "COMPLETED"]);
    const result = await p.result(VIDEO, requestId, { outputs: videoPorts });
    expect(result.media).toEqual([{ output: "video", url: luma.assetUrl(`${requestId}.mp4`) }]);
    const bytes = Buffer.from(await (await fetch(result.media[0]?.url ?? "")).arrayBuffer());
    expect(bytes.subarray(4, 8).toString()).toBe("ftyp");
    expect((luma.counters.creates[VIDEO] ?? 0) - before).toBe(1);
    expect(luma.counters.polls[requestId]).toBe(5);
  });

  it("maps a photon image and a video's frame onto the node's ports", async () => {
    const p = provider();
    const id = await completed(p, "generations/image");
    const image = await p.result("generations/image", id, {
      outputs: [{ id: "image", type: "image" }],
    });
    expect(image.media).toEqual([{ output: "image", url: luma.assetUrl(`${id}.png`) }]);
    const png = Buffer.from(await (await fetch(image.media[0]?.url ?? "")).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");

    const assets = { video: luma.assetUrl("v.mp4"), image: luma.assetUrl("f.png") };
    luma.script("next", [{ state: "completed" }], assets);
    const vid = await completed(p);
    const outputs = (await p.result(VIDEO, vid, { outputs: videoPorts })).media.map(
      (m) => m.output,
    );
    expect(outputs).toEqual(["video", "capturedFrame"]);
    expect((await p.result(VIDEO, vid)).media.map((m) => m.output)).toEqual(["video", "image"]);
  });

  it("treats unknown states as not final", async () => {
    luma.script("next", [{ state: "paused" }]);
    const { requestId } = await submit();
    expect((await provider().status(VIDEO, requestId)).status).toBe("IN_PROGRESS");
  });
});

describe("luma callbacks", () => {
  let receiver: Server;
  let hookUrl = "";
  const bodies: Buffer[] = [];
  beforeAll(async () => {
    receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      bodies.push(Buffer.concat(chunks));
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/luma/tok`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it("parses a delivered Generation into a hint, and garbage into null", async () => {
    const p = provider();
    const { requestId } = await p.submit({
      endpoint: VIDEO,
      input: { prompt: "x" },
      webhookUrl: hookUrl,
      idempotencyKey: "k",
    });
    await p.status(VIDEO, requestId);
    await p.status(VIDEO, requestId);
    expect(await luma.sendCallback(requestId)).toBe(204);
    const hint = { id: requestId, state: "dreaming" };
    expect(parseLumaCallback(bodies.at(-1))).toEqual(hint);
    expect(parseLumaCallback(bodies.at(-1)?.toString())).toEqual(hint);
    expect(parseLumaCallback(JSON.parse(String(bodies.at(-1))))).toEqual(hint);

    expect(await luma.sendCallback(requestId, "{not json")).toBe(204);
    expect(parseLumaCallback(bodies.at(-1))).toBeNull();
    for (const garbage of [
      null,
      undefined,
      42,
      "[]",
      [],
      { id: 5, state: "completed" },
      { id: "a" },
    ]) {
      expect(parseLumaCallback(garbage)).toBeNull();
    }
    expect(parseLumaCallback({ id: "../../admin", state: "completed" })).toBeNull();
  });
});
