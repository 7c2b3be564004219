import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { OPENAI_USER_MESSAGES as MSG } from "../src/providers/openai/openai-provider.ts";
import type { FakeFile } from "./fakes/openai-server.ts";
import {
  build,
  callsDuring,
  completedVideo,
  fetched,
  IMAGE,
  IMAGE_PORTS,
  imageRun,
  inputPng,
  oa,
  provider,
  run,
  submitRun,
  url,
  useFakeOpenAI,
  VIDEO,
  VIDEO_PORTS,
  videoRun,
} from "./helpers/openai-harness.ts";

// Happy paths and request bodies; fault handling lives in openai-provider-faults.test.ts.
useFakeOpenAI();

describe("openai buildInput", () => {
  const full = {
    prompt: "typed",
    imageSize: "1536x1024",
    quality: "high",
    background: "transparent",
    inputFidelity: "low",
    numImages: 2,
    outputFormat: "webp",
  };

  it("gpt-image text: every parameter mapped, the connected prompt wins, absent ones omitted", () => {
    expect(build(imageRun({}, full))).toStrictEqual({
      model: IMAGE,
      prompt: "a red fox",
      n: 2,
      size: "1536x1024",
      quality: "high",
      background: "transparent",
      output_format: "webp",
    });
    const typed = run("gpt-image", "gpt-image-1-mini", { prompt: " " }, { prompt: "hi" });
    expect(build(typed)).toStrictEqual({ model: "gpt-image-1-mini", prompt: "hi" });
  });

  it("gpt-image edit: image URLs and input_fidelity", () => {
    const images = [url("a.png"), url("b.jpg")];
    expect(
      build(imageRun({ image: images }, { inputFidelity: "high", numImages: 1 })),
    ).toStrictEqual({
      model: IMAGE,
      prompt: "a red fox",
      n: 1,
      image: images,
      input_fidelity: "high",
    });
  });

  it("sora-video: prompt, model, seconds, size, input_reference; bare when absent", () => {
    const params = { prompt: "", model: "sora-2-pro", seconds: "8", size: "1792x1024" };
    expect(build(videoRun({ image: url("i.png") }, params))).toStrictEqual({
      prompt: "waves at dusk",
      model: "sora-2-pro",
      seconds: "8",
      size: "1792x1024",
      input_reference: url("i.png"),
    });
    expect(build(run("sora-video", VIDEO, {}, { prompt: "typed", seconds: 4 }))).toStrictEqual({
      prompt: "typed",
      seconds: "4",
    });
    expect(build(run("sora-video", "sora-2", {}, { prompt: "x" }))).toMatchObject({
      model: "sora-2",
    });
  });

  it("an empty prompt or a non-OpenAI endpoint is fatal", () => {
    const noPrompt = { kind: "fatal", options: { userMessage: MSG.missingPrompt } };
    expect(() => build(run("gpt-image", IMAGE, {}, { prompt: " " }))).toThrow(
      expect.objectContaining(noPrompt),
    );
    expect(() => build(run("gpt-image", "fal-ai/gpt-image-1/text-to-image", {}, {}))).toThrow(
      expect.objectContaining({ options: { userMessage: MSG.unknownEndpoint } }),
    );
  });
});

describe("openai images", () => {
  it("generates synchronously: one call, COMPLETED at once, decodable bytes on the image port", async () => {
    const p = provider();
    const r = imageRun({}, { numImages: 2, outputFormat: "webp", quality: "low" });
    let requestId = "";
    const calls = await callsDuring("generations", async () => {
      ({ requestId } = await submitRun(r, p));
    });
    expect(calls).toBe(1);
    expect(oa.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/images/generations",
      authorized: true,
      body: { model: IMAGE, prompt: "a red fox", n: 2, quality: "low", output_format: "webp" },
    });
    expect(await p.status(IMAGE, requestId)).toMatchObject({ status: "COMPLETED" });
    const result = await p.result(IMAGE, requestId, { outputs: IMAGE_PORTS });
    expect(result.media).toHaveLength(2);
    for (const media of result.media) {
      expect(media).toMatchObject({ output: "image", contentType: "image/webp" });
      const meta = await sharp(media.bytes).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 8, height: 8 });
    }
    expect(JSON.stringify(result.raw)).toMatch(/base64 chars/);
  });

  it("edits: inputs read through fetchInput, sent as multipart `image` / `image[]`", async () => {
    const p = provider();
    fetched.length = 0;
    const two = imageRun({ image: [url("a.png"), url("b.png")] }, { inputFidelity: "high" });
    const { requestId } = await submitRun(two, p);
    expect(fetched).toEqual([url("a.png"), url("b.png")]);
    const sent = oa.requests.at(-1);
    expect(sent?.path).toBe("/v1/images/edits");
    expect(sent?.contentType).toMatch(/^multipart\/form-data/);
    const body = sent?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: IMAGE, prompt: "a red fox", input_fidelity: "high" });
    const files = body["image[]"] as FakeFile[];
    expect(files.map((f) => [f.type, f.size])).toEqual([
      ["image/png", inputPng.length],
      ["image/png", inputPng.length],
    ]);
    expect((await sharp(files[0]?.bytes).metadata()).width).toBe(40);
    const result = await p.result(IMAGE, requestId, { outputs: IMAGE_PORTS });
    expect((await sharp(result.media[0]?.bytes).metadata()).format).toBe("png");

    await submitRun(imageRun({ image: url("one.png") }), p);
    const one = oa.requests.at(-1)?.body as Record<string, unknown>;
    expect(one.image).toMatchObject({ type: "image/png" });
    expect(one["image[]"]).toBeUndefined();
  });
});

describe("openai video", () => {
  it("creates once, maps queued → in_progress → completed, downloads video and thumbnail", async () => {
    const p = provider();
    oa.script("next", [
      { status: "queued" },
      { status: "in_progress", progress: 33.4 },
      { status: "mystery" },
      { status: "completed" },
    ]);
    let requestId = "";
    const calls = await callsDuring("create", async () => {
      ({ requestId } = await submitRun(videoRun({}, { model: "sora-2", seconds: "4" }), p));
    });
    expect(calls).toBe(1);
    expect(requestId).toMatch(/^video_/);
    expect(oa.requests.at(-1)).toMatchObject({
      path: "/v1/videos",
      contentType: "application/json",
      authorized: true,
      body: { prompt: "waves at dusk", model: "sora-2", seconds: "4", size: "1280x720" },
    });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await p.status(VIDEO, requestId));
    expect(seen.map((s) => [s.status, s.progress])).toEqual([
      ["IN_QUEUE", null],
      ["IN_PROGRESS", 33],
      ["IN_PROGRESS", 0],
      ["COMPLETED", null],
    ]);
    const downloads = { ...oa.counters.downloads };
    const result = await p.result(VIDEO, requestId, { outputs: VIDEO_PORTS });
    expect(result.media.map((m) => [m.output, m.contentType])).toEqual([
      ["video", "video/webm"],
      ["capturedFrame", "image/png"],
    ]);
    const [video, frame] = result.media;
    expect(Buffer.from(video?.bytes ?? []).readUInt32BE(0)).toBe(0x1a45dfa3); // EBML: WebM
    expect((await sharp(frame?.bytes).metadata()).format).toBe("png");
    expect(oa.counters.downloads.video).toBe((downloads.video ?? 0) + 1);
    expect(oa.counters.downloads.thumbnail).toBe((downloads.thumbnail ?? 0) + 1);
    expect(oa.requests.at(-1)).toMatchObject({ query: "?variant=thumbnail", authorized: true });

    const bare = await p.result(VIDEO, requestId);
    expect(bare.media.map((m) => m.output)).toEqual(["video"]);
  });

  it("image to video: input_reference read, cropped to the size, sent as multipart", async () => {
    fetched.length = 0;
    const p = provider();
    await submitRun(videoRun({ image: url("start.png") }, { size: "720x1280" }), p);
    expect(fetched).toEqual([url("start.png")]);
    const sent = oa.requests.at(-1);
    expect(sent?.contentType).toMatch(/^multipart\/form-data/);
    const body = sent?.body as Record<string, unknown>;
    expect(body).toMatchObject({ prompt: "waves at dusk", size: "720x1280" });
    const ref = body.input_reference as FakeFile;
    const meta = await sharp(ref.bytes).metadata();
    expect([ref.type, meta.width, meta.height]).toEqual(["image/png", 720, 1280]);
  });

  it("a content redirect to another origin is followed without the key", async () => {
    const p = provider();
    const requestId = await completedVideo(p);
    oa.fault("content", { kind: "redirect" });
    const result = await p.result(VIDEO, requestId);
    expect(Buffer.from(result.media[0]?.bytes ?? []).readUInt32BE(0)).toBe(0x1a45dfa3);
    const cdn = oa.requests.filter((r) => r.path.startsWith("/cdn/")).at(-1);
    expect(cdn?.authorized).toBe(false);
  });
});
