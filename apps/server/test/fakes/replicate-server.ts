import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { signReplicateWebhook } from "../../src/providers/replicate/webhook.ts";
import { mp4Bytes, pngBytes, wavBytes } from "../helpers/files.ts";
import {
  applyFault,
  type ConnectionFault,
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
 * A fake Replicate predictions API on 127.0.0.1 (replicate.com/docs: create a prediction of
 * an official model, get, cancel, webhooks): Bearer auth, POST
 * /v1/models/{owner}/{name}/predictions, GET /v1/predictions/{id} following a per-prediction
 * script (one step per GET, the last repeats), POST /v1/predictions/{id}/cancel, GET
 * /v1/webhooks/default/secret, outputs served by the fake itself, signed webhooks on demand
 * (or badly signed / stale ones), per-route faults and counters. This fake's own choices
 * (unverified against Replicate): create answers 201, errors are `{ title, detail, status }`,
 * a cancel of a finished prediction answers it unchanged.
 */

/** One answer of GET /predictions/{id}. */
export interface ReplicateStep {
  status: "starting" | "processing" | "succeeded" | "failed" | "canceled" | (string & {});
  /** The whole `logs` text so far. */
  logs?: string;
  error?: string;
}

export type ReplicateRoute = "create" | "get" | "cancel" | "secret";

export type ReplicateFault =
  | { kind: "http"; status: 401 | 402 | 404 | 422 | 500 | 502 | 503; detail?: string }
  | RateLimitFault
  | ConnectionFault
  /** create: a 201 prediction without `id` (the prediction exists anyway). */
  | { kind: "no_id" }
  /** get: this answer says succeeded, with its output at a private address. */
  | { kind: "private_url"; url?: string };

export interface FakeReplicateCounters {
  /** Create requests per model (`owner/name`), faulted or not. */
  creates: Record<string, number>;
  /** Predictions the fake created. */
  created: number;
  polls: Record<string, number>;
  cancels: number;
  outputs: number;
  secretReads: number;
  unauthorized: number;
}

export interface FakeReplicate {
  /** The API base, `/v1` included (REPLICATE_BASE_URL). */
  url: string;
  key: string;
  /** The account's webhook signing secret (`whsec_…`). */
  secret: string;
  counters: FakeReplicateCounters;
  /** Every prediction created, in order, with the body as received. */
  requests: Array<{ id: string; model: string; body: Record<string, unknown> }>;
  /** Scripts the next prediction (or one by id): one step per GET, the last repeats. */
  script(target: string | "next", steps: ReplicateStep[]): void;
  fault(route: ReplicateRoute, fault: ReplicateFault, times?: number): void;
  /**
   * POSTs the prediction as it stands to its `webhook`, signed (or `bad`: with another
   * secret; `timestamp`: seconds, e.g. a stale one). Answers the status.
   */
  sendWebhook(id: string, options?: { bad?: boolean; timestamp?: number }): Promise<number>;
  close(): Promise<void>;
}

interface Prediction {
  id: string;
  model: string;
  body: Record<string, unknown>;
  steps: ReplicateStep[];
  at: number;
  canceled: boolean;
  createdAt: string;
}

const DEFAULT_STEPS: ReplicateStep[] = [
  { status: "starting" },
  { status: "processing", logs: "Loading model\n 40%|████      | 4/10 [00:01<00:01]" },
  { status: "succeeded", logs: "Loading model\n100%|██████████| 10/10 [00:02<00:00]" },
];
/** What each model we map answers: an extension of the fake's files. */
const OUTPUT_EXT: Record<string, string> = {
  "stability-ai/stable-audio-2.5": "wav",
  "runwayml/gen4-aleph": "mp4",
  "leonardoai/motion-2.0": "mp4",
};
const MEDIA_TYPES: Record<string, string> = {
  png: "image/png",
  mp4: "video/mp4",
  wav: "audio/wav",
};

/** Starts the fake on an ephemeral loopback port. */
export async function startFakeReplicate(): Promise<FakeReplicate> {
  const key = `r8_fake_${randomUUID().replaceAll("-", "")}`;
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const files: Record<string, Buffer> = { png: await pngBytes(), mp4: mp4Bytes(), wav: wavBytes() };
  const counters: FakeReplicateCounters = {
    creates: {},
    created: 0,
    polls: {},
    cancels: 0,
    outputs: 0,
    secretReads: 0,
    unauthorized: 0,
  };
  const requests: FakeReplicate["requests"] = [];
  const predictions = new Map<string, Prediction>();
  const nextScripts: ReplicateStep[][] = [];
  const faults = faultQueue<ReplicateRoute, ReplicateFault>();
  let origin = "";

  const send = sendJson;
  const problem = (res: ServerResponse, status: number, detail: string) =>
    send(res, status, { title: "Error", detail, status });
  /** Answers faults that replace the whole response; true when the request is handled. */
  const replaced = (res: ServerResponse, fault: ReplicateFault | undefined) =>
    applyFault(res, fault, (f) => {
      if (f.kind === "http") problem(res, f.status, f.detail ?? "Upstream failure");
      else if (f.kind === "rate_limit") {
        retryAfter(res, f.retryAfter);
        problem(res, 429, "Request was throttled.");
      } else return false;
      return true;
    });

  const current = (p: Prediction): ReplicateStep =>
    p.canceled
      ? { status: "canceled" }
      : (p.steps[Math.min(Math.max(p.at - 1, 0), p.steps.length - 1)] as ReplicateStep);

  /** The prediction object as Replicate shows it at `step`. */
  function view(p: Prediction, step: ReplicateStep): Record<string, unknown> {
    const ext = OUTPUT_EXT[p.model] ?? "png";
    return {
      id: p.id,
      model: p.model,
      version: "hidden",
      input: p.body.input ?? {},
      logs: step.logs ?? "",
      output: step.status === "succeeded" ? `${origin}/files/${p.id}.${ext}` : null,
      error: step.status === "failed" ? (step.error ?? null) : null,
      status: step.status,
      created_at: p.createdAt,
      urls: {
        get: `${origin}/v1/predictions/${p.id}`,
        cancel: `${origin}/v1/predictions/${p.id}/cancel`,
      },
    };
  }

  async function create(req: IncomingMessage, res: ServerResponse, model: string) {
    counters.creates[model] = (counters.creates[model] ?? 0) + 1;
    const raw = await readRaw(req);
    const fault = faults.take("create");
    // Refusals create nothing; every other fault loses the answer of a prediction that exists.
    if (isKind(fault, ["http", "rate_limit", "reset"])) return void (await replaced(res, fault));
    if (!OUTPUT_EXT[model]) return problem(res, 404, "The requested resource could not be found.");
    const body = JSON.parse(raw.toString() || "{}") as Record<string, unknown>;
    const id = randomBytes(13).toString("hex").slice(0, 26);
    const p: Prediction = {
      id,
      model,
      body,
      steps: nextScripts.shift() ?? DEFAULT_STEPS,
      at: 0,
      canceled: false,
      createdAt: new Date().toISOString(),
    };
    predictions.set(id, p);
    counters.created++;
    requests.push({ id, model, body });
    if (fault?.kind === "hang") return;
    const answer = view(p, { status: "starting" });
    if (fault?.kind === "no_id") delete answer.id;
    send(res, 201, answer, fault);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", origin).pathname;
    const file = /^\/files\/[\w-]+\.(png|mp4|wav)$/.exec(path);
    if (req.method === "GET" && file) {
      counters.outputs++;
      const ext = file[1] as string;
      return sendMedia(res, MEDIA_TYPES[ext] as string, files[ext] as Buffer);
    }
    if (req.headers.authorization !== `Bearer ${key}`) {
      counters.unauthorized++;
      return problem(res, 401, "You did not pass a valid authentication token");
    }
    if (req.method === "GET" && path === "/v1/webhooks/default/secret") {
      counters.secretReads++;
      if (await replaced(res, faults.take("secret"))) return;
      return send(res, 200, { key: secret });
    }
    const created = /^\/v1\/models\/([\w.-]+\/[\w.-]+)\/predictions$/.exec(path);
    if (req.method === "POST" && created) return create(req, res, created[1] as string);
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(path);
    if (req.method === "POST" && cancel) {
      counters.cancels++;
      if (await replaced(res, faults.take("cancel"))) return;
      const p = predictions.get(cancel[1] as string);
      if (!p) return problem(res, 404, "Not found.");
      const step = current(p);
      if (!["succeeded", "failed"].includes(step.status)) p.canceled = true;
      return send(res, 200, view(p, current(p)));
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (req.method !== "GET" || !get) return problem(res, 404, "Not found.");
    const id = get[1] as string;
    counters.polls[id] = (counters.polls[id] ?? 0) + 1;
    const fault = faults.take("get");
    if (await replaced(res, fault)) return;
    const p = predictions.get(id);
    if (!p) return problem(res, 404, "Not found.");
    if (fault?.kind === "private_url") {
      const url = fault.url ?? "http://169.254.169.254/latest/x.mp4";
      return send(res, 200, { ...view(p, { status: "succeeded" }), output: url });
    }
    if (!p.canceled) p.at++;
    send(res, 200, view(p, current(p)), fault);
  }

  const http = await listen(handle);
  origin = http.origin;

  return {
    url: `${origin}/v1`,
    key,
    secret,
    counters,
    requests,
    script(target, steps) {
      if (target === "next") return void nextScripts.push(steps);
      const p = predictions.get(target);
      if (!p) throw new Error(`fake replicate: no prediction ${target}`);
      Object.assign(p, { steps, at: 0 });
    },
    fault: faults.add,
    async sendWebhook(id, options = {}) {
      const p = predictions.get(id);
      const target = p?.body.webhook;
      if (!p || typeof target !== "string") throw new Error(`fake replicate: ${id} has no webhook`);
      const body = JSON.stringify(view(p, current(p)));
      const messageId = `msg_${randomUUID()}`;
      const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
      const signingSecret = options.bad ? `whsec_${randomBytes(24).toString("base64")}` : secret;
      const res = await fetch(target, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": messageId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signReplicateWebhook(signingSecret, messageId, timestamp, body),
        },
        body,
      });
      return res.status;
    },
    close: http.close,
  };
}
