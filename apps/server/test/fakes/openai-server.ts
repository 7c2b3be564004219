import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import sharp from "sharp";
import { renderVideo } from "../../src/providers/local/media/index.ts";
import {
  applyFault as applyCommon,
  bump,
  type ConnectionFault,
  type DelayFault,
  faultQueue,
  imageBytes,
  isFile,
  isKind,
  listen,
  readBody,
  sendBytes,
  sendJson,
} from "./fake-http.ts";

export type { FakeFile } from "./fake-http.ts";

/*
 * A fake OpenAI API on 127.0.0.1 (base `…/v1`) speaking the parts Atelier uses, after the
 * openai-node SDK (reference/catalogue gpt-image, sora-video [OAI-SDK]): `POST /images/
 * generations` (JSON) and `/images/edits` (multipart) answer `data[].b64_json` at once;
 * `POST /videos` (JSON or multipart) answers a queued video, `GET /videos/{id}` follows a
 * per-video script, `GET /videos/{id}/content[?variant=thumbnail]` serves a real WebM / PNG,
 * `DELETE /videos/{id}` deletes a finished video. Faults are switched per route; counters let
 * tests assert one create per job. Answers the docs leave open (a DELETE while running, content
 * before completion) are this fake's guesses.
 */

/** One answer of `GET /videos/{id}`; `status` may be any string (unknown values). */
export interface VideoStep {
  status: "queued" | "in_progress" | "completed" | "failed" | (string & {});
  /** 0–100. */
  progress?: number;
  error?: { code: string; message: string };
}

export type FakeOpenAIRoute = "generations" | "edits" | "create" | "video" | "content" | "delete";

export type FakeOpenAIFault =
  | { kind: "http"; status: 500 | 502 | 503 | 504 }
  /** 429 with the given headers (none given: `retry-after: 7`). */
  | { kind: "rate_limit"; retryAfter?: string; retryAfterMs?: string; resetRequests?: string }
  /** 429 `insufficient_quota`: billing, not a rate. */
  | { kind: "quota" }
  /** 400 `{ error }`; default: a content-policy (`moderation_blocked`) rejection. */
  | { kind: "bad_request"; message?: string; code?: string }
  /** 403, by default the organization-verification one. */
  | { kind: "forbidden"; message?: string }
  | DelayFault
  | ConnectionFault
  /** Create only: 200 without an `id` (the video is still created). */
  | { kind: "no_id" }
  /** Images only: 200 with an empty `data`. */
  | { kind: "no_images" }
  /** Video reads only: this answer is `failed` with this error. */
  | { kind: "failed"; message?: string; code?: string }
  /** Content only: 302 to `/cdn/…` on the fake's second origin (a CDN; no key needed). */
  | { kind: "redirect" };

export interface FakeOpenAICounters {
  /** Requests received per route, faulted or not. */
  calls: Record<FakeOpenAIRoute, number>;
  /** Image answers made (one per generations/edits call that reached the model). */
  generated: number;
  /** Videos the fake created. */
  created: number;
  /** `GET /videos/{id}` per video id. */
  polls: Record<string, number>;
  /** Content downloads served per variant (`video`, `thumbnail`, `cdn`). */
  downloads: Record<string, number>;
  unauthorized: number;
}

/** One request as received; the key itself is never recorded. */
export interface FakeOpenAIRequest {
  method: string;
  path: string;
  query: string;
  /** JSON body, or multipart fields (repeated names → arrays), or null. */
  body: unknown;
  authorized: boolean;
  contentType: string | null;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`. */
  url: string;
  key: string;
  counters: FakeOpenAICounters;
  requests: FakeOpenAIRequest[];
  /** Every video created, in create order, with the body it was created from. */
  videos: Array<{ id: string; body: unknown }>;
  /** Scripts a video's answers (one per poll, the last repeats); "next" = the next create. */
  script(target: string | "next", steps: VideoStep[]): void;
  /** Makes the next `times` calls to a route fail this way. */
  fault(route: FakeOpenAIRoute, fault: FakeOpenAIFault, times?: number): void;
  close(): Promise<void>;
}

interface Video {
  id: string;
  body: Record<string, unknown>;
  steps: VideoStep[];
  at: number;
}

const DEFAULT_STEPS: VideoStep[] = [
  { status: "queued" },
  { status: "in_progress", progress: 40 },
  { status: "completed" },
];
const MODELS = /^sora-2(?:-pro)?(?:-\d{4}-\d{2}-\d{2})?$/;
const SIZES = new Set(["720x1280", "1280x720", "1024x1792", "1792x1024"]);
const POLICY =
  "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.";
const VERIFY =
  "Your organization must be verified to use the model `gpt-image-1`. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization.";
const INVALID = "invalid_request_error";
const RATE = "rate_limit_exceeded";
const QUOTA = "insufficient_quota";
const oaiError = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
});

/** Starts the fake on an ephemeral loopback port. */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const key = `sk-fake-${randomUUID()}`;
  const clip = await renderVideo({ prompt: "fake sora", seed: 1, width: 64, height: 36, fps: 4 });
  const counters: FakeOpenAICounters = {
    calls: { generations: 0, edits: 0, create: 0, video: 0, content: 0, delete: 0 },
    generated: 0,
    created: 0,
    polls: {},
    downloads: {},
    unauthorized: 0,
  };
  const requests: FakeOpenAIRequest[] = [];
  const videoList: FakeOpenAI["videos"] = [];
  const videos = new Map<string, Video>();
  const nextScripts: VideoStep[][] = [];
  const faults = faultQueue<FakeOpenAIRoute, FakeOpenAIFault>();
  const takeFault = faults.take;
  let origin = "";
  let cdnOrigin = "";

  /** Sends a body (JSON unless bytes), mangled by a `truncated`/`malformed` fault. */
  function send(res: ServerResponse, status: number, body: unknown, fault?: FakeOpenAIFault) {
    if (Buffer.isBuffer(body)) sendBytes(res, status, undefined, body, fault);
    else sendJson(res, status, body, fault);
  }

  /** Answers faults that replace the whole response; true when the request is handled. */
  const applyFault = (res: ServerResponse, fault?: FakeOpenAIFault) =>
    applyCommon(res, fault, (f) => {
      if (f.kind === "http")
        send(res, f.status, oaiError("The server had an error", "server_error"));
      else if (f.kind === "rate_limit") {
        const { retryAfter, retryAfterMs, resetRequests } = f;
        if (retryAfter || (!retryAfterMs && !resetRequests)) {
          res.setHeader("retry-after", retryAfter ?? "7");
        }
        if (retryAfterMs) res.setHeader("retry-after-ms", retryAfterMs);
        if (resetRequests) res.setHeader("x-ratelimit-reset-requests", resetRequests);
        send(res, 429, oaiError("Rate limit reached for requests", "requests", RATE));
      } else if (f.kind === "quota") {
        send(res, 429, oaiError("You exceeded your current quota.", QUOTA, QUOTA));
      } else if (f.kind === "bad_request") {
        const error = oaiError(f.message ?? POLICY, INVALID, f.code ?? "moderation_blocked");
        send(res, 400, error);
      } else if (f.kind === "forbidden") send(res, 403, oaiError(f.message ?? VERIFY, INVALID));
      else return false;
      return true;
    });
  const refusesOutright = (fault?: FakeOpenAIFault) =>
    isKind(fault, ["http", "rate_limit", "quota", "bad_request", "forbidden", "reset"]);

  const bad = (res: ServerResponse, message: string) => send(res, 400, oaiError(message, INVALID));

  async function images(res: ServerResponse, route: "generations" | "edits", body: unknown) {
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const fault = takeFault(route);
    if (refusesOutright(fault)) return void (await applyFault(res, fault));
    if (typeof b.prompt !== "string" || b.prompt === "")
      return bad(res, "Missing required parameter: 'prompt'.");
    if (route === "edits") {
      const files = [b.image, b["image[]"]].flat().filter((f) => f !== undefined);
      if (files.length === 0 || !files.every(isFile))
        return bad(res, "Missing required parameter: 'image'.");
      if (!files.every((f) => /^image\/(png|jpeg|webp)$/.test(f.type)))
        return bad(res, "Invalid image file.");
    } else if ("image" in b) {
      return bad(res, "Unrecognized request argument supplied: image");
    }
    counters.generated++;
    if (await applyFault(res, fault)) return;
    const format = ["jpeg", "webp"].includes(String(b.output_format))
      ? String(b.output_format)
      : "png";
    const n = Number(b.n ?? 1);
    const picture = await imageBytes(format);
    const data =
      fault?.kind === "no_images"
        ? []
        : Array.from({ length: n }, () => ({ b64_json: picture.toString("base64") }));
    send(
      res,
      200,
      {
        created: Math.floor(Date.now() / 1000),
        data,
        output_format: format,
        size: b.size ?? "1024x1024",
        usage: { total_tokens: 100 },
      },
      fault,
    );
  }

  const videoObject = (video: Video, step: VideoStep) => ({
    id: video.id,
    object: "video",
    model: video.body.model ?? "sora-2",
    status: step.status,
    progress: step.progress ?? (step.status === "completed" ? 100 : 0),
    created_at: Math.floor(Date.now() / 1000),
    completed_at: step.status === "completed" ? Math.floor(Date.now() / 1000) : null,
    expires_at: null,
    error: step.error ?? null,
    prompt: video.body.prompt ?? null,
    seconds: video.body.seconds ?? "4",
    size: video.body.size ?? "720x1280",
    remixed_from_video_id: null,
  });
  const lastStatus = (video: Video) =>
    video.at === 0 ? undefined : video.steps[Math.min(video.at, video.steps.length) - 1]?.status;

  async function createVideo(res: ServerResponse, body: unknown) {
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const fault = takeFault("create");
    if (refusesOutright(fault)) return void (await applyFault(res, fault));
    if (typeof b.prompt !== "string" || b.prompt === "")
      return bad(res, "Missing required parameter: 'prompt'.");
    if (b.model !== undefined && !MODELS.test(String(b.model)))
      return bad(res, "Invalid value for 'model'.");
    if (b.seconds !== undefined && !["4", "8", "12"].includes(String(b.seconds)))
      return bad(res, "Invalid value for 'seconds'.");
    const size = String(b.size ?? "720x1280");
    if (!SIZES.has(size)) return bad(res, "Invalid value for 'size'.");
    if (b.input_reference !== undefined) {
      if (!isFile(b.input_reference)) return bad(res, "'input_reference' must be a file.");
      const meta = await sharp(b.input_reference.bytes)
        .metadata()
        .catch(() => null);
      if (`${meta?.width}x${meta?.height}` !== size)
        return bad(res, "Inpaint image must match the requested width and height");
    }
    const video: Video = {
      id: `video_${randomBytes(16).toString("hex")}`,
      body: b,
      steps: nextScripts.shift() ?? DEFAULT_STEPS,
      at: 0,
    };
    videos.set(video.id, video);
    counters.created++;
    videoList.push({ id: video.id, body: b });
    if (await applyFault(res, fault)) return;
    const answer = videoObject(video, { status: "queued", progress: 0 });
    send(res, 200, fault?.kind === "no_id" ? { ...answer, id: undefined } : answer, fault);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", origin);
    const path = url.pathname;
    const type = req.headers["content-type"] ?? "";
    const body = await readBody(req, type);
    const authorized = req.headers.authorization === `Bearer ${key}`;
    requests.push({
      method: req.method ?? "",
      path,
      query: url.search,
      body,
      authorized,
      contentType: type || null,
    });

    if (req.method === "GET" && path.startsWith("/cdn/")) {
      bump(counters.downloads, "cdn");
      return send(res, 200, clip.bytes);
    }
    if (!authorized) {
      counters.unauthorized++;
      const error = oaiError("Incorrect API key provided.", INVALID, "invalid_api_key");
      return send(res, 401, error);
    }
    if (
      req.method === "POST" &&
      (path === "/v1/images/generations" || path === "/v1/images/edits")
    ) {
      const route = path.endsWith("edits") ? "edits" : "generations";
      counters.calls[route]++;
      return images(res, route, body);
    }
    if (req.method === "POST" && path === "/v1/videos") {
      counters.calls.create++;
      return createVideo(res, body);
    }
    const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
    const video = videos.get(match?.[1] ?? "");
    const notFound = () => send(res, 404, oaiError("Video not found", INVALID));
    if (req.method === "GET" && match && !match[2]) {
      counters.calls.video++;
      const id = match[1] as string;
      bump(counters.polls, id);
      const fault = takeFault("video");
      if (await applyFault(res, fault)) return;
      if (!video) return notFound();
      if (fault?.kind === "failed") {
        const error = {
          code: fault.code ?? "moderation_blocked",
          message: fault.message ?? "The video was blocked by our moderation system.",
        };
        return send(res, 200, videoObject(video, { status: "failed", error }));
      }
      const step = video.steps[Math.min(video.at++, video.steps.length - 1)] as VideoStep;
      return send(res, 200, videoObject(video, step), fault);
    }
    if (req.method === "GET" && match?.[2]) {
      counters.calls.content++;
      const fault = takeFault("content");
      if (await applyFault(res, fault)) return;
      if (!video) return notFound();
      if (lastStatus(video) !== "completed")
        return send(res, 404, oaiError("Video is not ready", INVALID));
      const variant = url.searchParams.get("variant") ?? "video";
      if (fault?.kind === "redirect") {
        return void res.writeHead(302, { location: `${cdnOrigin}/cdn/${video.id}.webm` }).end();
      }
      const file =
        variant === "video" ? clip.bytes : variant === "thumbnail" ? clip.capturedFrame : null;
      if (!file) return bad(res, "Invalid value for 'variant'.");
      bump(counters.downloads, variant);
      res.setHeader("content-type", variant === "video" ? clip.contentType : "image/png");
      return send(res, 200, file, fault);
    }
    if (req.method === "DELETE" && match && !match[2]) {
      counters.calls.delete++;
      if (await applyFault(res, takeFault("delete"))) return;
      if (!video) return notFound();
      const status = lastStatus(video);
      if (status !== "completed" && status !== "failed") {
        return bad(res, "Video is still being generated and cannot be deleted.");
      }
      videos.delete(video.id);
      return send(res, 200, { id: video.id, object: "video.deleted", deleted: true });
    }
    return send(res, 404, oaiError(`Invalid URL (${req.method} ${path})`, INVALID));
  }

  const api = await listen(handle);
  // Another port is another origin: what a redirect to a CDN looks like to fetch.
  const cdn = await listen(handle);
  origin = api.origin;
  cdnOrigin = cdn.origin;

  return {
    url: `${origin}/v1`,
    key,
    counters,
    requests,
    videos: videoList,
    script(target, steps) {
      if (target === "next") return void nextScripts.push(steps);
      const video = videos.get(target);
      if (!video) throw new Error(`fake openai: no video ${target}`);
      Object.assign(video, { steps, at: 0 });
    },
    fault: faults.add,
    async close() {
      await api.close();
      await cdn.close();
    },
  };
}
