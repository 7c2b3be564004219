import { randomUUID } from "node:crypto";
import { getNodeDefinition } from "@atelier/core";
import { fileTypeFromBuffer } from "file-type";
import type { GenerationProvider, ProviderCapabilities, ResultMedia } from "../provider.ts";
import { ProviderError } from "../provider.ts";
import {
  type Answer,
  exchange,
  exchangeBytes,
  fatalError,
  jsonInit,
  parseJson,
  record,
  submitPhaseError,
  transientError,
  transportError,
} from "../transport.ts";
import {
  type ApiPrompt,
  buildComfyInput,
  type ComfyRequest,
  COMFYUI_MESSAGES as M,
  withUploads,
} from "./comfyui-input.ts";
import { history, nodeReport, refusal, statusOverHttp } from "./comfyui-status.ts";
import { missingFor, type ObjectInfo } from "./object-info.ts";
import { ProgressSocket, percentOf } from "./progress-socket.ts";

export { COMFYUI_MESSAGES, COMFYUI_NODE_TYPES } from "./comfyui-input.ts";

/*
 * The operator's own ComfyUI (one or a pool) behind `GenerationProvider`, over the API its
 * server.py serves: POST /upload/image, POST /prompt, ws /ws for progress, GET /history and
 * /view for results, GET /queue for positions, POST /queue {delete} and /interrupt to cancel,
 * GET /object_info to know what an instance can run. Request ids are `<instance>:<prompt_id>`.
 * What its answers mean (a prompt's status, a refusal, what it can run): comfyui-status.ts.
 */

export interface ComfyUIOptions {
  /** Base URLs of the instances (a pool when several). */
  urls: string[];
  /** Extra headers for every call (an auth header for an instance behind a proxy). */
  headers?: Record<string, string>;
  /** Our own media, as bytes (inputs are uploaded to ComfyUI, never fetched by it). */
  readMedia: (url: string) => Promise<Uint8Array>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** How long an instance's /object_info is trusted. Default 60 s. */
  objectInfoTtlMs?: number;
}

export interface ComfyUIProvider extends GenerationProvider {
  close(): void;
  capabilities(): Promise<ProviderCapabilities>;
  lastKnownHealth(): "ok" | "down" | "unknown";
  knownLacks(): Record<string, string>;
}

const FILE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
  glb: "model/gltf-binary",
  wav: "audio/wav",
  flac: "audio/flac",
  mp3: "audio/mpeg",
};

const PROMPT_ID = /^[\w-]{1,64}$/;
const displayNameOf = (type: string) => getNodeDefinition(type)?.displayName ?? type;

export function createComfyUIProvider(options: ComfyUIOptions): ComfyUIProvider {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const ttl = options.objectInfoTtlMs ?? 60_000;
  const headers = { Accept: "application/json", ...(options.headers ?? {}) };
  const clientId = randomUUID();
  const instances = options.urls.map((url) => {
    const base = url.replace(/\/+$/, "");
    const ws = `${base.replace(/^http/, "ws")}/ws?clientId=${clientId}`;
    return {
      base,
      socket: new ProgressSocket(ws, options.headers ?? {}),
      info: null as { at: number; value: ObjectInfo } | null,
    };
  });
  type Instance = (typeof instances)[number];

  const call = (instance: Instance, method: string, path: string, body?: unknown) =>
    exchange(doFetch, `${instance.base}${path}`, jsonInit(method, headers, body), timeoutMs);

  function httpError(what: string, answer: Answer, userMessage: string): ProviderError {
    const message = `${what}: HTTP ${answer.status}`;
    return (
      transientError(message, answer.status, 5000) ??
      fatalError(message, userMessage, answer.status)
    );
  }

  /** What the last call showed: an answer of any status means the instance is up. */
  let health: "ok" | "down" | "unknown" = "unknown";

  /** A read: JSON or a ProviderError (transport and 5xx retryable). */
  async function read(instance: Instance, what: string, path: string) {
    const answer = await call(instance, "GET", path);
    health = typeof answer === "string" ? "down" : "ok";
    if (typeof answer === "string") throw transportError(what, answer);
    if (answer.status !== 200) throw httpError(what, answer, M.failed(`HTTP ${answer.status}`));
    const json = parseJson(answer.text);
    if (json === undefined) throw new ProviderError(`${what}: malformed JSON`, "retryable");
    return json;
  }

  async function objectInfo(instance: Instance): Promise<ObjectInfo> {
    if (instance.info && Date.now() - instance.info.at < ttl) return instance.info.value;
    const value = record(await read(instance, "comfyui object_info", "/object_info")) as ObjectInfo;
    instance.info = { at: Date.now(), value };
    return value;
  }

  function parseRequestId(requestId: string) {
    const [index, promptId] = requestId.split(":");
    const instance = instances[Number(index)];
    if (!instance || !promptId || !PROMPT_ID.test(promptId))
      throw fatalError(`comfyui: bad request id ${requestId}`, M.lost);
    return { instance, promptId };
  }

  /** The instances able to run the prompt, least busy first; else why none can. */
  async function choose(request: ComfyRequest) {
    const able: { instance: Instance; index: number; queue: number }[] = [];
    const missing: string[] = [];
    for (const [index, instance] of instances.entries()) {
      let info: ObjectInfo;
      try {
        info = await objectInfo(instance);
      } catch (error) {
        const status = error instanceof ProviderError ? error.options.status : undefined;
        if (status === 401 || status === 403) missing.push(M.denied(instance.base, status));
        continue;
      }
      const lacks = missingFor(request.prompt, info);
      if (lacks.length > 0) {
        missing.push(M.missing(request.model, instance.base, lacks.join(", ")));
        continue;
      }
      const queue = await read(instance, "comfyui queue", "/prompt").then(
        (json) => Number(record(record(json).exec_info).queue_remaining) || 0,
        () => 0,
      );
      able.push({ instance, index, queue });
    }
    if (able.length > 0) return able.sort((a, b) => a.queue - b.queue)[0] as (typeof able)[0];
    if (missing.length > 0)
      throw fatalError(`comfyui: cannot run ${request.template}`, missing.join(" "));
    throw new ProviderError("comfyui: no instance reachable", "retryable", {
      userMessage: M.unreachable,
    });
  }

  async function upload(instance: Instance, url: string): Promise<string> {
    const bytes = await options.readMedia(url);
    const type = await fileTypeFromBuffer(bytes);
    const form = new FormData();
    const name = `atelier-${randomUUID()}.${type?.ext ?? "png"}`;
    form.set("image", new Blob([Buffer.from(bytes)], { type: type?.mime ?? "image/png" }), name);
    form.set("type", "input");
    const answer = await exchange(
      doFetch,
      `${instance.base}/upload/image`,
      { method: "POST", headers, body: form },
      timeoutMs,
    );
    if (typeof answer === "string") throw transportError("comfyui upload", answer);
    if (answer.status !== 200)
      throw httpError("comfyui upload", answer, M.failed("upload refused"));
    const saved = record(parseJson(answer.text));
    if (typeof saved.name !== "string")
      throw fatalError("comfyui upload: no name", M.failed("upload"));
    return saved.subfolder ? `${saved.subfolder}/${saved.name}` : saved.name;
  }

  // At start, what each instance can run (known before the first run; failures stay quiet).
  for (const instance of instances) void objectInfo(instance).catch(() => undefined);

  return {
    id: "comfyui",

    knownLacks() {
      const known = instances.flatMap((instance) =>
        instance.info ? [{ instance, info: instance.info.value }] : [],
      );
      if (known.length === 0) return {};
      const lacks: Record<string, string> = {};
      for (const [type, node] of Object.entries(nodeReport(known)))
        if (!node.runnable && node.missing)
          lacks[type] = M.missing(displayNameOf(type), node.url, node.missing);
      return lacks;
    },
    buildInput: (run) => buildComfyInput(run) as unknown as Record<string, unknown>,

    async submit(submitted) {
      const request = submitted.input as unknown as ComfyRequest;
      const { instance, index } = await choose(request);
      const names: Record<string, string> = {};
      for (const [key, url] of Object.entries(request.uploads))
        names[key] = await upload(instance, url);
      const prompt: ApiPrompt = withUploads(request.prompt, names);
      const what = `comfyui submit ${request.template}`;
      await instance.socket.ready();
      const answer = await call(instance, "POST", "/prompt", { prompt, client_id: clientId });
      if (typeof answer === "string") throw submitPhaseError(what, answer, M.unreachable);
      if (answer.status === 400)
        throw fatalError(`${what}: refused`, M.rejected(request.model, refusal(answer)), 400);
      if (answer.status !== 200) throw httpError(what, answer, M.failed(`HTTP ${answer.status}`));
      const promptId = record(parseJson(answer.text)).prompt_id;
      if (typeof promptId !== "string" || !PROMPT_ID.test(promptId))
        throw fatalError(`${what}: no prompt_id`, M.failed("no prompt id"));
      instance.socket.track(promptId, Object.keys(prompt).length);
      return { requestId: `${index}:${promptId}` };
    },

    async status(_endpoint, requestId) {
      const { instance, promptId } = parseRequestId(requestId);
      const live = instance.socket.read(promptId);
      if (live?.phase === "running")
        return { status: "IN_PROGRESS", queuePosition: null, progress: percentOf(live), logs: [] };
      const status = await statusOverHttp(read, instance, promptId);
      if (status.status !== "IN_QUEUE" && status.status !== "IN_PROGRESS")
        instance.socket.forget(promptId);
      return status;
    },

    async result(_endpoint, requestId, context) {
      const { instance, promptId } = parseRequestId(requestId);
      const request = (context?.request ?? {}) as unknown as Partial<ComfyRequest>;
      const entry = await history(read, instance, promptId);
      if (!entry) throw new ProviderError("comfyui result: not in history", "retryable");
      const output = request.output ?? { node: "", port: "image" };
      const saved = record(record(entry.outputs)[output.node]);
      const files = Object.values(saved)
        .filter(Array.isArray)
        .flat()
        .map(record)
        .filter((file) => typeof file.filename === "string");
      if (files.length === 0)
        throw fatalError("comfyui result: no files", M.failed("the workflow saved no file"));
      const media: ResultMedia[] = [];
      for (const file of files) {
        const query = new URLSearchParams({
          filename: String(file.filename),
          subfolder: String(file.subfolder ?? ""),
          type: String(file.type ?? "output"),
        });
        const answer = await exchangeBytes(
          doFetch,
          `${instance.base}/view?${query}`,
          { headers },
          timeoutMs * 4,
        );
        if (typeof answer === "string") throw transportError("comfyui view", answer);
        if (answer.status !== 200)
          throw new ProviderError(`comfyui view: HTTP ${answer.status}`, "retryable");
        const extension = String(file.filename).split(".").pop()?.toLowerCase() ?? "";
        media.push({
          output: output.port,
          bytes: answer.bytes,
          ...(FILE_TYPES[extension] ? { contentType: FILE_TYPES[extension] } : {}),
        });
      }
      return { raw: { prompt_id: promptId, outputs: entry.outputs }, media };
    },

    async cancel(_endpoint, requestId) {
      const { instance, promptId } = parseRequestId(requestId);
      const queue = record(await read(instance, "comfyui queue", "/queue"));
      const has = (list: unknown) =>
        Array.isArray(list) && list.some((item) => Array.isArray(item) && item[1] === promptId);
      // Interrupt only our own running prompt: an old ComfyUI interrupts whatever runs.
      if (has(queue.queue_running))
        await call(instance, "POST", "/interrupt", { prompt_id: promptId });
      else await call(instance, "POST", "/queue", { delete: [promptId] });
      instance.socket.forget(promptId);
    },

    lastKnownHealth: () => health,

    async capabilities() {
      const checked = await Promise.all(
        instances.map(async (instance) => {
          instance.info = null;
          try {
            return { instance, info: await objectInfo(instance), error: null };
          } catch (error) {
            const status = error instanceof ProviderError ? error.options.status : undefined;
            const text = status ? M.denied(instance.base, status) : M.unreachable;
            return { instance, info: null, error: text };
          }
        }),
      );
      const up = checked.flatMap((item) => (item.info ? [{ ...item, info: item.info }] : []));
      const nodes: ProviderCapabilities["nodes"] = {};
      for (const [type, node] of Object.entries(nodeReport(up)))
        nodes[type] = { runnable: node.runnable, missing: node.missing };
      return {
        instances: checked.map((item) => ({
          url: item.instance.base,
          ok: item.info !== null,
          error: item.error,
        })),
        nodes,
      };
    },

    close() {
      for (const instance of instances) instance.socket.close();
    },
  };
}
