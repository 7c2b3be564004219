import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mp4Bytes, pngBytes } from "../helpers/files.ts";
import {
  applyFault as applyCommon,
  type ConnectionFault,
  type DelayFault,
  faultQueue,
  isKind,
  listen,
  parseBody,
  type RateLimitFault,
  readRaw,
  retryAfter,
  sendJson,
  sendMedia,
} from "./fake-http.ts";

/*
 * A fake Runway API on 127.0.0.1 speaking the task protocol of reference/providers.md:
 * create endpoints answer `{ id }`, `GET /v1/tasks/{id}` follows a per-task script, `DELETE`
 * cancels (or deletes a finished task). Output URLs point at media this fake serves itself.
 * Faults are switched per route; counters let tests assert one create per job and the poll
 * spacing. Answers to points the docs leave open (e.g. a 404 after DELETE) are this fake's.
 */

/** One answer of `GET /v1/tasks/{id}`; `status` may be any string (unknown values). */
export interface TaskStep {
  status:
    | "PENDING"
    | "THROTTLED"
    | "RUNNING"
    | "SUCCEEDED"
    | "FAILED"
    | "CANCELLED"
    | (string & {});
  /** RUNNING: 0–1. */
  progress?: number;
  /** SUCCEEDED: output URLs (default: one media file of the endpoint's kind on this fake). */
  output?: string[];
  failure?: string;
  failureCode?: string;
}

export type FakeRunwayRoute = "create" | "task" | "delete" | "media";

export type FakeRunwayFault =
  | { kind: "http"; status: 500 | 502 | 503 | 504 }
  | RateLimitFault
  /** Create only: 400 `{ error }` (default a plain sentence). */
  | { kind: "bad_request"; error?: unknown }
  | DelayFault
  | ConnectionFault
  /** Create only: 200 without an `id` (the task is still created). */
  | { kind: "no_id" }
  /** Task only: this answer is FAILED. */
  | { kind: "failed"; failure?: string; failureCode?: string }
  /** Task only: SUCCEEDED with an output URL at a private address. */
  | { kind: "private_url"; url?: string };

export interface FakeRunwayCounters {
  /** Create requests received per endpoint (`v1/image_to_video`), faulted or not. */
  creates: Record<string, number>;
  /** Tasks the fake created. */
  created: number;
  /** Times (from `now`) of each `GET /v1/tasks/{id}`, per task id. */
  polls: Record<string, number[]>;
  deletes: number;
  media: number;
  unauthorized: number;
  badVersion: number;
}

/** One request as received (media included); the key itself is never recorded. */
export interface FakeRunwayRequest {
  method: string;
  path: string;
  body: unknown;
  authorized: boolean;
  version: string | null;
}

export interface FakeRunway {
  url: string;
  key: string;
  counters: FakeRunwayCounters;
  requests: FakeRunwayRequest[];
  /** Every task created, in create order, with the body it was created from. */
  tasks: Array<{ id: string; endpoint: string; body: unknown }>;
  /** Scripts a task's answers (one per poll, the last repeats); "next" = the next create. */
  script(target: string | "next", steps: TaskStep[]): void;
  /** Makes the next `times` calls to a route fail this way. */
  fault(route: FakeRunwayRoute, fault: FakeRunwayFault, times?: number): void;
  mediaUrl(name: string): string;
  close(): Promise<void>;
}

interface Task {
  id: string;
  endpoint: string;
  steps: TaskStep[];
  at: number;
  cancelled: boolean;
}

const VERSION = "2024-11-06";
const CREATE_ENDPOINTS = new Set(["v1/image_to_video", "v1/video_to_video", "v1/text_to_image"]);
const DEFAULT_STEPS: TaskStep[] = [
  { status: "PENDING" },
  { status: "RUNNING", progress: 0.5 },
  { status: "SUCCEEDED" },
];
const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/** Starts the fake on an ephemeral loopback port; `now` stamps polls (default Date.now). */
export async function startFakeRunway(options: { now?: () => number } = {}): Promise<FakeRunway> {
  const now = options.now ?? Date.now;
  const key = `fake-runway-key-${randomUUID()}`;
  const files: Record<string, [Buffer, string]> = {
    png: [await pngBytes(), "image/png"],
    mp4: [mp4Bytes(), "video/mp4"],
  };
  const counters: FakeRunwayCounters = {
    creates: {},
    created: 0,
    polls: {},
    deletes: 0,
    media: 0,
    unauthorized: 0,
    badVersion: 0,
  };
  const requests: FakeRunwayRequest[] = [];
  const taskList: FakeRunway["tasks"] = [];
  const tasks = new Map<string, Task>();
  const nextScripts: TaskStep[][] = [];
  const faults = faultQueue<FakeRunwayRoute, FakeRunwayFault>();
  const takeFault = faults.take;
  let base = "";

  const defaultOutput = (task: Task) => [
    `${base}/media/${task.id}.${task.endpoint.endsWith("_image") ? "png" : "mp4"}`,
  ];

  const send = sendJson;
  /** Answers faults that replace the whole response; true when the request is handled. */
  const applyFault = (res: ServerResponse, fault?: FakeRunwayFault) =>
    applyCommon(res, fault, (f) => {
      if (f.kind === "http") send(res, f.status, { error: "Runway is shedding load" });
      else if (f.kind === "rate_limit") {
        retryAfter(res, f.retryAfter);
        send(res, 429, { error: "Too many requests" });
      } else if (f.kind === "bad_request") {
        send(res, 400, { error: f.error ?? "The prompt image could not be read." });
      } else return false;
      return true;
    });

  /** The task's answer for this poll, advancing its script. */
  function poll(task: Task, fault?: FakeRunwayFault): Record<string, unknown> {
    const body = { id: task.id, createdAt: new Date().toISOString() };
    if (fault?.kind === "failed") {
      const { failure = "The generation was flagged by content moderation.", failureCode } = fault;
      return { ...body, status: "FAILED", failure, ...(failureCode ? { failureCode } : {}) };
    }
    if (fault?.kind === "private_url") {
      return {
        ...body,
        status: "SUCCEEDED",
        output: [fault.url ?? "http://169.254.169.254/x.mp4"],
      };
    }
    if (task.cancelled) return { ...body, status: "CANCELLED" };
    const step = task.steps[Math.min(task.at++, task.steps.length - 1)] as TaskStep;
    const { status, progress, failure, failureCode } = step;
    return {
      ...body,
      status,
      ...(status === "RUNNING" ? { progress: progress ?? 0 } : {}),
      ...(status === "SUCCEEDED" ? { output: step.output ?? defaultOutput(task) } : {}),
      ...(failure === undefined ? {} : { failure }),
      ...(failureCode === undefined ? {} : { failureCode }),
    };
  }
  const isFinal = (task: Task) =>
    task.cancelled || FINAL.has(task.steps[Math.max(0, task.at - 1)]?.status ?? "");

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", base).pathname;
    const body = parseBody(await readRaw(req));
    const authorized = req.headers.authorization === `Bearer ${key}`;
    const version = (req.headers["x-runway-version"] as string | undefined) ?? null;
    requests.push({ method: req.method ?? "", path, body, authorized, version });

    if (req.method === "GET" && path.startsWith("/media/")) {
      counters.media++;
      if (await applyFault(res, takeFault("media"))) return;
      const file = files[path.split(".").pop() ?? ""];
      if (!file) return send(res, 404, { error: "Not found" });
      return sendMedia(res, file[1], file[0]);
    }
    if (!authorized) {
      counters.unauthorized++;
      return send(res, 401, { error: "Invalid API key" });
    }
    if (version !== VERSION) {
      counters.badVersion++;
      return send(res, 400, { error: "The X-Runway-Version header is missing or invalid." });
    }
    const taskMatch = /^\/v1\/tasks\/([^/]+)$/.exec(path);
    if (req.method === "POST" && !taskMatch) {
      const endpoint = path.slice(1);
      counters.creates[endpoint] = (counters.creates[endpoint] ?? 0) + 1;
      if (!CREATE_ENDPOINTS.has(endpoint)) return send(res, 404, { error: "Not found" });
      const fault = takeFault("create");
      if (isKind(fault, ["http", "rate_limit", "bad_request", "reset"])) {
        return void (await applyFault(res, fault));
      }
      const task: Task = {
        id: randomUUID(),
        endpoint,
        steps: nextScripts.shift() ?? DEFAULT_STEPS,
        at: 0,
        cancelled: false,
      };
      tasks.set(task.id, task);
      counters.created++;
      taskList.push({ id: task.id, endpoint, body });
      if (await applyFault(res, fault)) return;
      return send(res, 200, fault?.kind === "no_id" ? {} : { id: task.id }, fault);
    }
    const id = taskMatch?.[1] ?? "";
    const task = tasks.get(id);
    if (req.method === "GET" && taskMatch) {
      counters.polls[id] = [...(counters.polls[id] ?? []), now()];
      const fault = takeFault("task");
      if (await applyFault(res, fault)) return;
      if (!task) return send(res, 404, { error: "Task not found" });
      return send(res, 200, poll(task, fault), fault);
    }
    if (req.method === "DELETE" && taskMatch) {
      counters.deletes++;
      const fault = takeFault("delete");
      if (await applyFault(res, fault)) return;
      if (!task) return send(res, 404, { error: "Task not found" });
      // A running task is cancelled; a finished one is deleted and unknown from then on.
      if (isFinal(task)) tasks.delete(id);
      else task.cancelled = true;
      return void res.writeHead(204).end();
    }
    return send(res, 405, { error: "Method not allowed" });
  }

  const http = await listen(handle);
  base = http.origin;

  return {
    url: base,
    key,
    counters,
    requests,
    tasks: taskList,
    script(target, steps) {
      if (target === "next") return void nextScripts.push(steps);
      const task = tasks.get(target);
      if (!task) throw new Error(`fake runway: no task ${target}`);
      Object.assign(task, { steps, at: 0 });
    },
    fault: faults.add,
    mediaUrl: (name) => `${base}/media/${name}`,
    close: http.close,
  };
}
