import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mp4Bytes, pngBytes } from "../helpers/files.ts";
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
 * A fake Luma Dream Machine API on 127.0.0.1 (reference/providers.md, Luma section): Bearer
 * auth, the create endpoints, GET/DELETE /generations/{id} following a per-generation script,
 * assets served by the fake itself, unsigned callbacks on demand, per-route faults and
 * counters. This fake's own choices (unverified against Luma): DELETE answers 204, a deleted
 * generation answers 404, errors are `{ detail }`.
 */

/** One answer of GET /generations/{id}; `state` may be any string (unknown = not final). */
export interface LumaStep {
  state: "queued" | "dreaming" | "completed" | "failed" | (string & {});
  failureReason?: string;
  /** Report the reason as the older docs' `state_reason` instead of `failure_reason`. */
  legacyReason?: boolean;
}

export type LumaRoute = "create" | "get" | "delete";

export type LumaFault =
  | { kind: "http"; status: 400 | 403 | 404 | 422 | 500 | 502 | 503 | 504; detail?: unknown }
  | RateLimitFault
  | ConnectionFault
  /** create: a 201 Generation without `id` (the job exists anyway). */
  | { kind: "no_id" }
  /** get: this answer says failed, with `failure_reason` (or `state_reason` when legacy). */
  | { kind: "failed"; reason?: string; legacy?: boolean }
  /** get: this answer says completed, with its asset at a private address. */
  | { kind: "private_url"; url?: string };

export interface FakeLumaCounters {
  /** Create requests received per endpoint (`generations/video`…), faulted or not. */
  creates: Record<string, number>;
  /** Generations the fake created. */
  created: number;
  /** GET /generations/{id} per id. */
  polls: Record<string, number>;
  deletes: number;
  assets: number;
  unauthorized: number;
}

export interface FakeLuma {
  url: string;
  key: string;
  counters: FakeLumaCounters;
  /** Every generation created, in order, with the body as received. */
  requests: Array<{ id: string; endpoint: string; body: unknown; callbackUrl: string | null }>;
  /** Scripts a generation (one step per GET, the last repeats) and its completed assets. */
  script(target: string | "next", steps: LumaStep[], assets?: Record<string, string>): void;
  /** Makes the next `times` calls to a route fail this way. */
  fault(route: LumaRoute, fault: LumaFault, times?: number): void;
  assetUrl(name: string): string;
  /** POSTs the generation as it stands (or `body`) to its `callback_url`; answers the status. */
  sendCallback(id: string, body?: unknown): Promise<number>;
  close(): Promise<void>;
}

interface Generation {
  id: string;
  endpoint: string;
  body: Record<string, unknown>;
  steps: LumaStep[];
  at: number;
  assets: Record<string, string>;
  createdAt: string;
}

const CREATE_TYPES: Record<string, string> = {
  "generations/video": "video",
  "generations/video/modify": "modify_video",
  "generations/video/reframe": "reframe_video",
  "generations/image": "image",
  "generations/image/reframe": "reframe_image",
};
const DEFAULT_STEPS: LumaStep[] = [
  { state: "queued" },
  { state: "dreaming" },
  { state: "completed" },
];
const MEDIA_TYPES: Record<string, string> = { png: "image/png", mp4: "video/mp4" };

/** Starts the fake on an ephemeral loopback port. */
export async function startFakeLuma(): Promise<FakeLuma> {
  const key = `luma-fake-key-${randomUUID()}`;
  const files: Record<string, Buffer> = { png: await pngBytes(), mp4: mp4Bytes() };
  const counters: FakeLumaCounters = {
    creates: {},
    created: 0,
    polls: {},
    deletes: 0,
    assets: 0,
    unauthorized: 0,
  };
  const requests: FakeLuma["requests"] = [];
  const generations = new Map<string, Generation>();
  const nextScripts: Array<{ steps: LumaStep[]; assets?: Record<string, string> }> = [];
  const faults = faultQueue<LumaRoute, LumaFault>();
  const takeFault = faults.take;
  let base = "";

  /** The Generation object as Luma shows it at `step`. */
  function view(g: Generation, step: LumaStep): Record<string, unknown> {
    const reasonKey = step.legacyReason ? "state_reason" : "failure_reason";
    return {
      id: g.id,
      generation_type: CREATE_TYPES[g.endpoint],
      state: step.state,
      failure_reason: null,
      ...(step.state === "failed" ? { [reasonKey]: step.failureReason ?? null } : {}),
      created_at: g.createdAt,
      assets: step.state === "completed" ? g.assets : null,
      model: g.body.model ?? null,
      request: g.body,
    };
  }
  /** The step last served (the first before any poll). */
  const current = (g: Generation) =>
    g.steps[Math.min(Math.max(g.at - 1, 0), g.steps.length - 1)] as LumaStep;

  const send = sendJson;
  /** Answers faults that replace the whole response; true when the request is handled. */
  const replaced = (res: ServerResponse, fault: LumaFault | undefined) =>
    applyFault(res, fault, (f) => {
      if (f.kind === "http") send(res, f.status, { detail: f.detail ?? "Upstream failure" });
      else if (f.kind === "rate_limit") {
        retryAfter(res, f.retryAfter);
        send(res, 429, { detail: "Too many requests" });
      } else return false;
      return true;
    });

  async function create(req: IncomingMessage, res: ServerResponse, endpoint: string) {
    counters.creates[endpoint] = (counters.creates[endpoint] ?? 0) + 1;
    const raw = await readRaw(req);
    const fault = takeFault("create");
    // Refusals create nothing; every other fault loses the answer of a job that exists.
    if (isKind(fault, ["http", "rate_limit", "reset"])) return void (await replaced(res, fault));
    const body = JSON.parse(raw.toString() || "{}") as Record<string, unknown>;
    const script = nextScripts.shift();
    const id = randomUUID();
    const ext = endpoint.startsWith("generations/image") ? "png" : "mp4";
    const g: Generation = {
      id,
      endpoint,
      body,
      steps: script?.steps ?? DEFAULT_STEPS,
      at: 0,
      assets: script?.assets ?? {
        [ext === "png" ? "image" : "video"]: `${base}/assets/${id}.${ext}`,
      },
      createdAt: new Date().toISOString(),
    };
    generations.set(id, g);
    counters.created++;
    const callbackUrl = typeof body.callback_url === "string" ? body.callback_url : null;
    requests.push({ id, endpoint, body, callbackUrl });
    if (fault?.kind === "hang") return;
    const answer = view(g, { state: "queued" });
    if (fault?.kind === "no_id") delete answer.id;
    send(res, 201, answer, fault);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", base).pathname;
    const asset = /^\/assets\/[\w-]+\.(png|mp4)$/.exec(path);
    if (req.method === "GET" && asset) {
      counters.assets++;
      const ext = asset[1] as string;
      return sendMedia(res, MEDIA_TYPES[ext] as string, files[ext] as Buffer);
    }
    if (req.headers.authorization !== `Bearer ${key}`) {
      counters.unauthorized++;
      return send(res, 401, { detail: "Invalid API key" });
    }
    const endpoint = path.slice(1);
    if (req.method === "POST" && CREATE_TYPES[endpoint]) return create(req, res, endpoint);
    const match = /^\/generations\/([^/]+)$/.exec(path);
    if (!match || (req.method !== "GET" && req.method !== "DELETE")) {
      return send(res, 404, { detail: "Not found" });
    }
    const id = match[1] as string;
    const g = generations.get(id);
    if (req.method === "DELETE") {
      counters.deletes++;
      if (await replaced(res, takeFault("delete"))) return;
      if (!g) return send(res, 404, { detail: "Generation not found" });
      generations.delete(id);
      return void res.writeHead(204).end();
    }
    counters.polls[id] = (counters.polls[id] ?? 0) + 1;
    const fault = takeFault("get");
    if (await replaced(res, fault)) return;
    if (!g) return send(res, 404, { detail: "Generation not found" });
    if (fault?.kind === "failed") {
      const step = { state: "failed", failureReason: fault.reason, legacyReason: fault.legacy };
      return send(res, 200, view(g, step));
    }
    if (fault?.kind === "private_url") {
      const url = fault.url ?? "http://169.254.169.254/latest/x.mp4";
      return send(res, 200, { ...view(g, { state: "completed" }), assets: { video: url } });
    }
    const step = g.steps[Math.min(g.at++, g.steps.length - 1)] as LumaStep;
    send(res, 200, view(g, step), fault);
  }

  const http = await listen(handle);
  base = http.origin;

  return {
    url: base,
    key,
    counters,
    requests,
    script(target, steps, assets) {
      if (target === "next") return void nextScripts.push({ steps, ...(assets ? { assets } : {}) });
      const g = generations.get(target);
      if (!g) throw new Error(`fake luma: no generation ${target}`);
      Object.assign(g, { steps, at: 0, ...(assets ? { assets } : {}) });
    },
    fault: faults.add,
    assetUrl: (name) => `${base}/assets/${name}`,
    async sendCallback(id, body) {
      const g = generations.get(id);
      const target = requests.find((r) => r.id === id)?.callbackUrl;
      if (!target) throw new Error(`fake luma: generation ${id} has no callback_url`);
      const payload = body ?? (g ? view(g, current(g)) : { id, state: "deleted" });
      const res = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof payload === "string" ? payload : JSON.stringify(payload),
      });
      return res.status;
    },
    close: http.close,
  };
}
