import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mp4Bytes, pngBytes } from "../helpers/files.ts";
import {
  applyFault as applyCommon,
  bump,
  type ConnectionFault,
  type DelayFault,
  faultQueue,
  isKind,
  listen,
  readRaw,
  sendBytes,
  sendJson,
  sendMedia,
  retryAfter as setRetryAfter,
} from "./fake-http.ts";

/*
 * A fake Gemini API on 127.0.0.1 (reference/providers.md, Google): generateContent (text, or
 * an inline PNG for image models), predictLongRunning operations following a script, operation
 * polls and cancels, video downloads, input images, per-route faults and counters. Every API
 * route needs the `x-goog-api-key` header: missing → 403, wrong → 400 API_KEY_INVALID.
 * Choices where Google is unverified: `done` is omitted while running (proto3 JSON), a
 * cancelled operation ends with error code 1, lost operations answer 404 NOT_FOUND.
 */

/** One poll answer; the last step repeats. `done: true` without error or response = 1 video. */
export type OperationStep =
  | { done: false }
  | { done: true; error?: { code: number; message: string }; response?: unknown };

export type FakeGoogleRoute =
  | "generate"
  | "predict"
  | "operation"
  | "cancel"
  | "download"
  | "input";

export type FakeGoogleFault =
  | { kind: "http"; status: 400 | 401 | 403 | 404 | 500 | 503 | 504; message?: string }
  /** 429; `retryAfter` as a header (default "7" unless `retryDelay`), `retryDelay` as RetryInfo. */
  | { kind: "rate_limit"; retryAfter?: string; retryDelay?: string }
  | DelayFault
  | ConnectionFault
  /** 404 NOT_FOUND, as for an operation or file Google no longer knows. */
  | { kind: "lost" };

export interface FakeGoogleCounters {
  /** generateContent and predictLongRunning requests per model (every attempt, faulted too). */
  calls: Record<string, number>;
  /** Operations created. */
  created: number;
  /** Polls per operation name. */
  polls: Record<string, number>;
  cancels: number;
  downloads: number;
  inputs: number;
  unauthorized: number;
}

export interface FakeGoogle {
  url: string;
  key: string;
  counters: FakeGoogleCounters;
  /** Every authorised generate/predict request, in order, with its parsed body. */
  requests: Array<{ model: string; method: string; body: unknown }>;
  /** Scripts an operation's polls (by name, or the next one created). */
  script(target: string | "next", steps: OperationStep[]): void;
  /** The next generateContent answers 200 with this body instead of the default. */
  respond(body: unknown): void;
  /** Makes the next `times` calls to a route fail this way. */
  fault(route: FakeGoogleRoute, fault: FakeGoogleFault, times?: number): void;
  /** An input image URL served without a key (`name` ends in .png). */
  inputUrl(name: string): string;
  videoUrl(id: string): string;
  close(): Promise<void>;
}

interface Operation {
  id: string;
  name: string;
  steps: OperationStep[];
  at: number;
  cancelled: boolean;
}

const CODES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};
const DEFAULT_STEPS: OperationStep[] = [{ done: false }, { done: true }];

/** Starts the fake on an ephemeral loopback port. */
export async function startFakeGoogle(): Promise<FakeGoogle> {
  const key = `fake-google-key-${randomUUID()}`;
  const png = await pngBytes(8, 8);
  const mp4 = mp4Bytes();
  const counters: FakeGoogleCounters = {
    calls: {},
    created: 0,
    polls: {},
    cancels: 0,
    downloads: 0,
    inputs: 0,
    unauthorized: 0,
  };
  const requests: FakeGoogle["requests"] = [];
  const operations = new Map<string, Operation>();
  const nextScripts: OperationStep[][] = [];
  const answers: unknown[] = [];
  const faults = faultQueue<FakeGoogleRoute, FakeGoogleFault>();
  const takeFault = faults.take;
  let base = "";
  const videoUrl = (id: string) => `${base}/v1beta/files/${id}:download?alt=media`;

  const googleError = (status: number, message: string, details?: unknown[]) => ({
    error: { code: status, message, status: CODES[status] ?? "UNKNOWN", details },
  });

  /** Sends a body (an MP4 when bytes), mangled by a `truncated`/`malformed` fault. */
  function send(res: ServerResponse, status: number, body: unknown, fault?: FakeGoogleFault) {
    if (Buffer.isBuffer(body)) return sendBytes(res, status, "video/mp4", body, fault);
    sendJson(res, status, body, fault, "application/json; charset=UTF-8");
  }

  /** Answers faults that replace the whole response; true when the request is handled. */
  const applyFault = (res: ServerResponse, fault: FakeGoogleFault | undefined) =>
    applyCommon(res, fault, (f) => {
      if (f.kind === "http") {
        send(res, f.status, googleError(f.status, f.message ?? "Upstream failure"));
      } else if (f.kind === "rate_limit") {
        const { retryAfter, retryDelay } = f;
        if (retryAfter ?? !retryDelay) setRetryAfter(res, retryAfter);
        const info = { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay };
        send(res, 429, googleError(429, "Quota exceeded", retryDelay ? [info] : undefined));
      } else if (f.kind === "lost") {
        send(res, 404, googleError(404, "Requested entity was not found."));
      } else return false;
      return true;
    });

  function defaultAnswer(model: string, body: unknown) {
    const request = body as {
      contents?: { parts?: { text?: string }[] }[];
      generationConfig?: { responseModalities?: string[] };
    };
    const parts = request.contents?.flatMap((c) => c.parts ?? []) ?? [];
    const prompt = parts.flatMap((p) => (typeof p.text === "string" ? [p.text] : [])).join(" ");
    const part = request.generationConfig?.responseModalities?.includes("IMAGE")
      ? { inlineData: { mimeType: "image/png", data: png.toString("base64") } }
      : { text: `Echo: ${prompt}` };
    return {
      candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
      modelVersion: model,
    };
  }

  function operationBody(op: Operation) {
    const step: OperationStep = op.cancelled
      ? { done: true, error: { code: 1, message: "CANCELLED" } }
      : (op.steps[Math.min(op.at++, op.steps.length - 1)] ?? { done: true });
    if (!step.done) return { name: op.name, metadata: {} };
    if (step.error) return { name: op.name, done: true, error: step.error };
    const videos = { generatedSamples: [{ video: { uri: videoUrl(op.id) } }] };
    const response = step.response ?? {
      "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse",
      generateVideoResponse: videos,
    };
    return { name: op.name, done: true, response };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", base).pathname;
    const raw = await readRaw(req);
    if (req.method === "GET" && /^\/inputs\/[\w-]+\.png$/.test(path)) {
      counters.inputs++;
      if (await applyFault(res, takeFault("input"))) return;
      return sendMedia(res, "image/png", png);
    }
    const given = req.headers["x-goog-api-key"];
    if (given !== key) {
      counters.unauthorized++;
      if (given === undefined) {
        return send(res, 403, googleError(403, "Method doesn't allow unregistered callers."));
      }
      const info = {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
      };
      return send(
        res,
        400,
        googleError(400, "API key not valid. Please pass a valid API key.", [info]),
      );
    }
    const file = /^\/v1beta\/files\/([\w-]+):download$/.exec(path);
    if (file && req.method === "GET") {
      counters.downloads++;
      const fault = takeFault("download");
      if (await applyFault(res, fault)) return;
      if (!operations.has(file[1] ?? "")) return send(res, 404, googleError(404, "Not found"));
      return send(res, 200, mp4, fault);
    }
    const call = /^\/v1beta\/models\/([\w.-]+):(generateContent|predictLongRunning)$/.exec(path);
    if (call && req.method === "POST") {
      const [, model = "", method = ""] = call;
      bump(counters.calls, model);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString() || "{}");
      } catch {
        return send(res, 400, googleError(400, "Invalid JSON payload received."));
      }
      requests.push({ model, method, body });
      const route = method === "generateContent" ? "generate" : "predict";
      const fault = takeFault(route);
      if (isKind(fault, ["http", "rate_limit", "reset", "lost"])) {
        return void (await applyFault(res, fault));
      }
      let answer: unknown;
      if (route === "generate") answer = answers.shift() ?? defaultAnswer(model, body);
      else {
        const id = randomUUID().replaceAll("-", "");
        const name = `models/${model}/operations/${id}`;
        const steps = nextScripts.shift() ?? DEFAULT_STEPS;
        operations.set(id, { id, name, steps, at: 0, cancelled: false });
        counters.created++;
        answer = { name };
      }
      if (await applyFault(res, fault)) return;
      return send(res, 200, answer, fault);
    }
    const opMatch = /^\/v1beta\/(models\/[\w.-]+\/operations\/(\w+))(:cancel)?$/.exec(path);
    if (opMatch) {
      const [, name = "", id = "", cancel] = opMatch;
      const op = operations.get(id);
      if (cancel) counters.cancels++;
      else bump(counters.polls, name);
      const fault = takeFault(cancel ? "cancel" : "operation");
      if (await applyFault(res, fault)) return;
      if (!op || op.name !== name) return send(res, 404, googleError(404, "Operation not found"));
      if (cancel && req.method === "POST") {
        op.cancelled = true;
        return send(res, 200, {}, fault);
      }
      if (!cancel && req.method === "GET") return send(res, 200, operationBody(op), fault);
    }
    send(res, 404, googleError(404, "Not found"));
  }

  const http = await listen(handle);
  base = http.origin;

  return {
    url: base,
    key,
    counters,
    requests,
    script(target, steps) {
      if (target === "next") return void nextScripts.push(steps);
      const op = [...operations.values()].find((o) => o.name === target);
      if (!op) throw new Error(`fake google: no operation ${target}`);
      Object.assign(op, { steps, at: 0 });
    },
    respond: (body) => void answers.push(body),
    fault: faults.add,
    inputUrl: (name) => `${base}/inputs/${name}`,
    videoUrl,
    close: http.close,
  };
}
