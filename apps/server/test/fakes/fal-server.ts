import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { glbBytes, mp4Bytes, pngBytes, wavBytes } from "../helpers/files.ts";
import {
  applyFault as applyCommon,
  bump,
  type ConnectionFault,
  type DelayFault,
  faultQueue,
  isKind,
  listen,
  type RateLimitFault,
  readRaw,
  retryAfter,
  sendJson,
  sendMedia,
} from "./fake-http.ts";

/*
 * A fake fal.ai on 127.0.0.1 speaking the queue protocol of reference/providers.md, with
 * scripted status sequences, per-route faults, media files, signed webhooks and counters.
 * Points marked (unverified) in the reference are this fake's choice, not fal's documented
 * answer: results of cancelled requests (400), results fetched before COMPLETED (400).
 */

/** One status answer; `status` may be any string (unknown values test "not final"). */
export interface StatusStep {
  status: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | (string & {});
  position?: number;
  logs?: string[];
  /** COMPLETED with an infrastructure failure (`error_type`, `error`). */
  errorType?: string;
}

/** What `GET …/requests/{id}` answers once COMPLETED: the model's own status and body. */
export interface ScriptedResult {
  status?: number;
  body?: unknown;
}

export type FakeRoute = "submit" | "status" | "stream" | "result" | "cancel" | "media" | "jwks";

export type FakeFault =
  | { kind: "http"; status: 500 | 502 | 503 | 504; errorType?: string; userTimeout?: boolean }
  | RateLimitFault
  | DelayFault
  | ConnectionFault
  /** Result only: 404, as after fal's retention window. */
  | { kind: "expired" }
  /** Result only: a media URL at a private address. */
  | { kind: "private_url"; url?: string };

export type WebhookVariant = "valid" | "forged" | "stale" | "duplicate";

export interface FakeFalCounters {
  /** Submit requests received, per endpoint id (every attempt, faulted or not). */
  submits: Record<string, number>;
  /** Jobs the fake created. */
  created: number;
  status: Record<string, number>;
  streams: number;
  results: Record<string, number>;
  cancels: number;
  media: number;
  jwks: number;
  unauthorized: number;
}

export interface FakeFal {
  url: string;
  key: string;
  counters: FakeFalCounters;
  /** Every job created, in submit order. */
  jobs: Array<{ requestId: string; endpoint: string; input: unknown; webhookUrl: string | null }>;
  /** Scripts a request's status sequence (one step per status call, last repeats) and result. */
  script(target: string | "next", steps: StatusStep[], result?: ScriptedResult): void;
  /** Makes the next `times` calls to a route fail this way. */
  fault(route: FakeRoute, fault: FakeFault, times?: number): void;
  mediaUrl(name: string): string;
  /** POSTs a fal webhook to `url`; answers the status code of each delivery. */
  sendWebhook(options: {
    url: string;
    requestId: string;
    variant?: WebhookVariant;
    status?: "OK" | "ERROR";
    payload?: unknown;
  }): Promise<number[]>;
  close(): Promise<void>;
}

interface Job {
  id: string;
  app: string;
  steps: StatusStep[];
  at: number;
  result: ScriptedResult;
  completed: boolean;
  cancelled: boolean;
}

const DEFAULT_STEPS: StatusStep[] = [
  { status: "IN_QUEUE", position: 0 },
  { status: "IN_PROGRESS", logs: ["working"] },
  { status: "COMPLETED", logs: ["done"] },
];
const MEDIA_TYPES: Record<string, string> = {
  png: "image/png",
  mp4: "video/mp4",
  wav: "audio/wav",
  glb: "model/gltf-binary",
};
const WEBHOOK_USER_ID = "fake-user";
const ROUTES: Record<string, FakeRoute> = {
  "/status": "status",
  "/status/stream": "stream",
  "/cancel": "cancel",
};

/** Starts the fake on an ephemeral loopback port. */
/** The server's settings that send its fal jobs to this fake (its key, queue and JWKS). */
export function falEnv(fal: FakeFal): Record<string, string> {
  return {
    FAL_KEY: fal.key,
    FAL_QUEUE_URL: fal.url,
    FAL_WEBHOOK_JWKS_URL: `${fal.url}/.well-known/jwks.json`,
    OUTBOUND_ALLOW_HOSTS: new URL(fal.url).host,
  };
}

/** A fixed port and key: the e2e suite starts it as a process (fal-process.ts). */
export async function startFakeFal(fixed: { port?: number; key?: string } = {}): Promise<FakeFal> {
  const key = fixed.key ?? `fake-key-${randomUUID()}`;
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const forgedKey = generateKeyPairSync("ed25519").privateKey;
  const png = await pngBytes();
  const files: Record<string, Buffer> = { png, mp4: mp4Bytes(), wav: wavBytes(), glb: glbBytes() };
  const counters: FakeFalCounters = {
    submits: {},
    created: 0,
    status: {},
    streams: 0,
    results: {},
    cancels: 0,
    media: 0,
    jwks: 0,
    unauthorized: 0,
  };
  const jobsList: FakeFal["jobs"] = [];
  const jobs = new Map<string, Job>();
  const nextScripts: Array<{ steps: StatusStep[]; result?: ScriptedResult }> = [];
  const faults = faultQueue<FakeRoute, FakeFault>();
  const takeFault = faults.take;
  let base = "";

  // Unscripted: a video model (Veo) answers a video, any other an image.
  const defaultResult = (id: string, endpoint = ""): ScriptedResult =>
    /\/veo/.test(endpoint)
      ? { status: 200, body: { video: { url: `${base}/media/${id}.mp4` } } }
      : {
          status: 200,
          body: {
            images: [
              { url: `${base}/media/${id}.png`, content_type: "image/png", width: 8, height: 8 },
            ],
            seed: 42,
          },
        };
  const urls = (job: Job) => {
    const prefix = `${base}/${job.app}/requests/${job.id}`;
    return { response_url: prefix, status_url: `${prefix}/status`, cancel_url: `${prefix}/cancel` };
  };

  const send = sendJson;
  /** Answers faults that replace the whole response; true when the request is handled. */
  const applyFault = (res: ServerResponse, fault: FakeFault | undefined) =>
    applyCommon(res, fault, (f) => {
      if (f.kind === "http") {
        if (f.userTimeout) res.setHeader("x-fal-request-timeout-type", "user");
        send(res, f.status, { detail: "Upstream failure", error_type: f.errorType });
      } else if (f.kind === "rate_limit") {
        retryAfter(res, f.retryAfter);
        send(res, 429, { detail: "Too many requests" });
      } else return false;
      return true;
    });

  function statusBody(job: Job, step: StatusStep) {
    return {
      status: step.status,
      request_id: job.id,
      ...urls(job),
      ...(step.status === "IN_QUEUE" ? { queue_position: step.position ?? 0 } : {}),
      logs: (step.logs ?? []).map((message) => ({
        message,
        level: "INFO",
        source: "USER",
        timestamp: new Date().toISOString(),
      })),
      ...(step.status === "COMPLETED" ? { metrics: { inference_time: 1.5 } } : {}),
      ...(step.errorType ? { error_type: step.errorType, error: "Runner failed" } : {}),
    };
  }
  const nextStep = (job: Job): StatusStep => {
    const step = job.cancelled
      ? { status: "COMPLETED" }
      : (job.steps[Math.min(job.at++, job.steps.length - 1)] as StatusStep);
    if (step.status === "COMPLETED") job.completed = true;
    return step;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", base);
    const path = url.pathname;
    if (req.method === "GET" && path === "/.well-known/jwks.json") {
      counters.jwks++;
      if (await applyFault(res, takeFault("jwks"))) return;
      const jwk = publicKey.export({ format: "jwk" });
      return send(res, 200, { keys: [{ ...jwk, kid: "fake-1", use: "sig", alg: "EdDSA" }] });
    }
    if (req.method === "GET" && path.startsWith("/media/")) {
      counters.media++;
      if (await applyFault(res, takeFault("media"))) return;
      const ext = path.split(".").pop() ?? "";
      const file = files[ext];
      if (!file) return send(res, 404, { detail: "Not found" });
      return sendMedia(res, MEDIA_TYPES[ext] as string, file);
    }
    if (req.headers.authorization !== `Key ${key}`) {
      counters.unauthorized++;
      return send(res, 401, { detail: "Unauthorized" });
    }
    const match = /^\/(.+?)\/requests\/([^/]+)(\/status\/stream|\/status|\/cancel)?$/.exec(path);
    if (!match) {
      if (req.method !== "POST" || path.split("/").filter(Boolean).length < 2) {
        return send(res, 404, { detail: "Not found" });
      }
      const endpoint = path.slice(1);
      bump(counters.submits, endpoint);
      const raw = await readRaw(req);
      const fault = takeFault("submit");
      if (isKind(fault, ["http", "rate_limit", "reset"]))
        return void (await applyFault(res, fault));
      const script = nextScripts.shift();
      const id = randomUUID();
      const job: Job = {
        id,
        app: endpoint.split("/").slice(0, 2).join("/"),
        steps: script?.steps ?? DEFAULT_STEPS,
        at: 0,
        result: script?.result ?? defaultResult(id, endpoint),
        completed: false,
        cancelled: false,
      };
      jobs.set(id, job);
      counters.created++;
      const input = raw.length > 0 ? JSON.parse(raw.toString()) : null;
      const webhookUrl = url.searchParams.get("fal_webhook");
      jobsList.push({ requestId: id, endpoint, input, webhookUrl });
      if (await applyFault(res, fault)) return;
      const answer = { status: "IN_QUEUE", request_id: id, queue_position: 0, ...urls(job) };
      return send(res, 200, answer, fault);
    }
    const [, app, id = "", action] = match;
    const job = jobs.get(id);
    const route = ROUTES[action ?? ""] ?? "result";
    if (route === "status" || route === "result") {
      bump(route === "status" ? counters.status : counters.results, id);
    } else counters[route === "stream" ? "streams" : "cancels"]++;
    const fault = takeFault(route);
    if (await applyFault(res, fault)) return;
    const notFound = route === "cancel" ? { status: "NOT_FOUND" } : { detail: "Request not found" };
    if (!job || job.app !== app) return send(res, 404, notFound);
    if (route === "status" && req.method === "GET") {
      const step = nextStep(job);
      return send(res, step.status === "COMPLETED" ? 200 : 202, statusBody(job, step), fault);
    }
    if (route === "stream" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(": keep-alive\n\n");
      for (;;) {
        const step = nextStep(job);
        res.write(`data: ${JSON.stringify(statusBody(job, step))}\n\n`);
        if (step.status === "COMPLETED" || job.at >= job.steps.length) break;
      }
      res.end();
      return;
    }
    if (route === "cancel" && req.method === "PUT") {
      if (job.completed) return send(res, 400, { status: "ALREADY_COMPLETED" });
      job.cancelled = true;
      return send(res, 202, { status: "CANCELLATION_REQUESTED" });
    }
    if (route === "result" && req.method === "GET") {
      if (fault?.kind === "expired") return send(res, 404, { detail: "Request not found" });
      if (job.cancelled) return send(res, 400, { detail: "Request was cancelled" });
      if (!job.completed) return send(res, 400, { detail: "Request is still in progress" });
      if (fault?.kind === "private_url") {
        const bad = fault.url ?? "http://169.254.169.254/latest/x.png";
        return send(res, 200, { images: [{ url: bad, content_type: "image/png" }] });
      }
      return send(res, job.result.status ?? 200, job.result.body ?? {}, fault);
    }
    return send(res, 405, { detail: "Method not allowed" });
  }

  const http = await listen(handle, fixed.port);
  base = http.origin;

  return {
    url: base,
    key,
    counters,
    jobs: jobsList,
    script(target, steps, result) {
      if (target === "next") return void nextScripts.push({ steps, ...(result ? { result } : {}) });
      const job = jobs.get(target);
      if (!job) throw new Error(`fake fal: no request ${target}`);
      Object.assign(job, { steps, at: 0, completed: false, ...(result ? { result } : {}) });
    },
    fault: faults.add,
    mediaUrl: (name) => `${base}/media/${name}`,
    async sendWebhook({ url, requestId, variant = "valid", status = "OK", payload }) {
      const body = JSON.stringify({
        request_id: requestId,
        gateway_request_id: requestId,
        status,
        payload: payload ?? jobs.get(requestId)?.result.body ?? defaultResult(requestId).body,
        ...(status === "ERROR" ? { error: "Invalid status code: 422" } : {}),
      });
      const timestamp = String(Math.floor(Date.now() / 1000) - (variant === "stale" ? 600 : 0));
      const digest = createHash("sha256").update(body).digest("hex");
      const message = Buffer.from(`${requestId}\n${WEBHOOK_USER_ID}\n${timestamp}\n${digest}`);
      const signer = variant === "forged" ? forgedKey : privateKey;
      const headers = {
        "content-type": "application/json",
        "x-fal-webhook-request-id": requestId,
        "x-fal-webhook-user-id": WEBHOOK_USER_ID,
        "x-fal-webhook-timestamp": timestamp,
        "x-fal-webhook-signature": sign(null, message, signer).toString("hex"),
      };
      const statuses: number[] = [];
      for (let i = 0; i < (variant === "duplicate" ? 2 : 1); i++) {
        statuses.push((await fetch(url, { method: "POST", headers, body })).status);
      }
      return statuses;
    },
    close: http.close,
  };
}
