import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { type ApiPrompt, TEMPLATES } from "../../src/providers/comfyui/comfyui-input.ts";
import { glbBytes, mp4Bytes, pngBytes } from "../helpers/files.ts";
import { isFile, type Listening, listen, readBody, sendJson, sendMedia } from "./fake-http.ts";

/*
 * A ComfyUI on loopback speaking server.py's API: /object_info built from the repo's
 * templates (minus the models and nodes a test removes), /upload/image, /prompt with
 * validation, one prompt executed at a time with progress over ws /ws?clientId=, /history,
 * /view, /queue, /interrupt. Tests can hold a run at its first sampler step, refuse or drop
 * WebSockets, fail a node, require an auth header and restart the server (which, like
 * ComfyUI, forgets its queue and history).
 */

export interface FakeComfyOptions {
  /** Model files this instance lacks. */
  missingModels?: string[];
  /** Node classes this instance lacks. */
  missingNodes?: string[];
  /** A header every call must carry, as [name, value]. */
  requireHeader?: [string, string];
  /** Listen on this port (default: any free one). */
  port?: number;
}

interface Queued {
  number: number;
  id: string;
  prompt: ApiPrompt;
  clientId: string;
}

const MODEL_INPUT = /(_name\d?|^ckpt_name|^model_name)$/;
const SAMPLERS = new Set(["KSampler", "KSamplerAdvanced"]);
const STEPS = 3;
const FREE_TEXT = new Set(["text", "filename_prefix"]);

/** /object_info for every class the templates use; model inputs list the installed files. */
function objectInfo(options: FakeComfyOptions) {
  const missingModels = new Set(options.missingModels ?? []);
  const missingNodes = new Set(options.missingNodes ?? []);
  const models = new Set<string>();
  for (const { graph } of Object.values(TEMPLATES))
    for (const node of Object.values(graph))
      for (const [name, value] of Object.entries(node.inputs))
        if (MODEL_INPUT.test(name) && typeof value === "string" && !missingModels.has(value))
          models.add(value);
  const info: Record<string, { input: { required: Record<string, unknown> } }> = {};
  for (const { graph } of Object.values(TEMPLATES))
    for (const node of Object.values(graph)) {
      if (missingNodes.has(node.class_type)) continue;
      info[node.class_type] ??= { input: { required: {} } };
      const required = (info[node.class_type] as { input: { required: Record<string, unknown> } })
        .input.required;
      for (const [name, value] of Object.entries(node.inputs)) {
        if (MODEL_INPUT.test(name)) required[name] = [[...models].sort(), {}];
        else if (name === "image" && node.class_type === "LoadImage")
          required[name] = [[], { image_upload: true }];
        else if (FREE_TEXT.has(name) || typeof value !== "string" || value.startsWith("{{"))
          required[name] = ["STRING", {}];
        else {
          // A choice (sampler, scheduler…): every value the templates use is offered.
          const before = required[name] as [string, { options: string[] }] | undefined;
          const options = new Set([...(before?.[1].options ?? []), value]);
          required[name] = ["COMBO", { options: [...options] }];
        }
      }
    }
  return info;
}

export async function startFakeComfyUI(options: FakeComfyOptions = {}) {
  const events = new EventEmitter();
  const info = objectInfo(options);
  const uploads = new Map<string, Buffer>();
  const files = new Map<string, { type: string; bytes: Buffer }>();
  let queue: Queued[] = [];
  let history: Record<string, unknown> = {};
  let running: Queued | null = null;
  let interrupted = false;
  let number = 0;
  let held: (() => void) | null = null;
  let lastNode: string | null = null;
  const state = {
    /** Hold each run at its first sampler step until `release()`. */
    hold: false,
    /** Refuse WebSocket upgrades (the client must poll /history). */
    refuseSockets: false,
    /** The next run fails at its first sampler with this message. */
    failNext: null as string | null,
  };
  /** Every prompt accepted, as sent. */
  const received: ApiPrompt[] = [];
  const counters = { prompts: 0, uploads: 0, interrupts: 0, deletes: 0, sockets: 0 };
  const sockets = new Map<string, WebSocket>();
  const wss = new WebSocketServer({ noServer: true });

  const send = (clientId: string, type: string, data: Record<string, unknown>) => {
    const socket = sockets.get(clientId);
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type, data }));
    events.emit(type, data);
  };
  const authorised = (req: IncomingMessage) =>
    !options.requireHeader ||
    req.headers[options.requireHeader[0].toLowerCase()] === options.requireHeader[1];

  async function outputOf(node: ApiPrompt[string], prompt: ApiPrompt, n: number) {
    const prefix = String(node.inputs.filename_prefix ?? "ComfyUI");
    const save = (name: string, type: string, bytes: Buffer) => {
      files.set(name, { type, bytes });
      return {
        filename: name.split("/").pop(),
        subfolder: name.split("/").slice(0, -1).join("/"),
        type: "output",
      };
    };
    if (node.class_type === "SaveImage") {
      const latent = Object.values(prompt).find(
        (item) => item.class_type === "EmptySD3LatentImage",
      );
      const width = Math.max(8, Math.round(Number(latent?.inputs.width ?? 64) / 16));
      const height = Math.max(8, Math.round(Number(latent?.inputs.height ?? 64) / 16));
      const count = Number(latent?.inputs.batch_size ?? 1);
      const images = [];
      for (let i = 0; i < count; i++)
        images.push(save(`${prefix}_${n}_${i}.png`, "image/png", await pngBytes(width, height)));
      return { images };
    }
    if (node.class_type === "SaveVideo")
      return { images: [save(`${prefix}_${n}.mp4`, "video/mp4", mp4Bytes())], animated: [true] };
    if (node.class_type === "SaveGLB")
      return { "3d": [save(`${prefix}_${n}.glb`, "model/gltf-binary", glbBytes())] };
    return null;
  }

  async function execute(item: Queued) {
    running = item;
    interrupted = false;
    const messages: unknown[] = [["execution_start", { prompt_id: item.id }]];
    send(item.clientId, "execution_start", { prompt_id: item.id });
    send(item.clientId, "execution_cached", { nodes: [], prompt_id: item.id });
    const outputs: Record<string, unknown> = {};
    let error: Record<string, unknown> | null = null;
    for (const [id, node] of Object.entries(item.prompt)) {
      send(item.clientId, "executing", { node: id, prompt_id: item.id });
      lastNode = id;
      if (SAMPLERS.has(node.class_type)) {
        for (let value = 1; value <= STEPS && !interrupted && !error; value++) {
          if (value === 1 && state.failNext) {
            error = {
              prompt_id: item.id,
              node_id: id,
              node_type: node.class_type,
              exception_message: state.failNext,
            };
            state.failNext = null;
            break;
          }
          send(item.clientId, "progress", { value, max: STEPS, prompt_id: item.id, node: id });
          if (value === 1 && state.hold) await new Promise<void>((resolve) => (held = resolve));
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      if (interrupted || error) break;
      const output = await outputOf(node, item.prompt, item.number);
      if (output) {
        outputs[id] = output;
        send(item.clientId, "executed", { node: id, output, prompt_id: item.id });
      }
    }
    if (running !== item) return; // a restart forgot it
    running = null;
    const done = !interrupted && !error;
    if (interrupted) {
      messages.push(["execution_interrupted", { prompt_id: item.id }]);
      send(item.clientId, "execution_interrupted", { prompt_id: item.id });
    } else if (error) {
      messages.push(["execution_error", error]);
      send(item.clientId, "execution_error", error);
    } else {
      messages.push(["execution_success", { prompt_id: item.id }]);
      send(item.clientId, "executing", { node: null, prompt_id: item.id });
      send(item.clientId, "execution_success", { prompt_id: item.id });
    }
    history[item.id] = {
      prompt: [item.number, item.id, item.prompt, { client_id: item.clientId }, []],
      outputs,
      status: { status_str: done ? "success" : "error", completed: done, messages },
    };
    events.emit("finished", { prompt_id: item.id });
    void next();
  }

  async function next() {
    if (running || queue.length === 0) return;
    queue.sort((a, b) => a.number - b.number);
    const item = queue.shift() as Queued;
    await execute(item);
  }

  /** ComfyUI's validation: unknown classes, combo values not listed, missing uploads. */
  function validate(prompt: ApiPrompt) {
    const nodeErrors: Record<string, unknown> = {};
    for (const [id, node] of Object.entries(prompt)) {
      const spec = info[node.class_type];
      if (!spec)
        return {
          error: {
            type: "invalid_prompt",
            message: `Cannot execute because node ${node.class_type} does not exist.`,
            details: `Node ID '#${id}'`,
          },
          node_errors: {},
        };
      for (const [name, value] of Object.entries(node.inputs)) {
        const choices = spec.input.required[name];
        const list =
          Array.isArray(choices) && Array.isArray(choices[0]) ? (choices[0] as string[]) : null;
        const missing =
          node.class_type === "LoadImage"
            ? !uploads.has(String(value))
            : list && !list.includes(String(value));
        if (missing)
          nodeErrors[id] = {
            errors: [
              {
                type: "value_not_in_list",
                message: "Value not in list",
                details: `${name}: '${value}' not in list`,
              },
            ],
            class_type: node.class_type,
          };
      }
    }
    return Object.keys(nodeErrors).length > 0
      ? {
          error: {
            type: "prompt_outputs_failed_validation",
            message: "Prompt outputs failed validation",
            details: "",
          },
          node_errors: nodeErrors,
        }
      : null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!authorised(req)) return void res.writeHead(401).end();
    const url = new URL(req.url ?? "/", "http://fake");
    const route = `${req.method} ${url.pathname}`;
    const body =
      req.method === "POST" ? await readBody(req, req.headers["content-type"] ?? "") : null;
    const fields = (body ?? {}) as Record<string, unknown>;
    if (route === "GET /object_info") return sendJson(res, 200, info);
    if (route === "GET /prompt")
      return sendJson(res, 200, {
        exec_info: { queue_remaining: queue.length + (running ? 1 : 0) },
      });
    if (route === "GET /queue") {
      const row = (q: Queued) => [q.number, q.id, q.prompt, { client_id: q.clientId }, []];
      return sendJson(res, 200, {
        queue_running: running ? [row(running)] : [],
        queue_pending: queue.map(row),
      });
    }
    if (route === "POST /upload/image") {
      const image = fields.image;
      if (!isFile(image)) return void res.writeHead(400).end();
      counters.uploads++;
      uploads.set(image.name, image.bytes);
      return sendJson(res, 200, { name: image.name, subfolder: "", type: "input" });
    }
    if (route === "POST /prompt") {
      const prompt = fields.prompt as ApiPrompt | undefined;
      if (!prompt)
        return sendJson(res, 400, {
          error: { type: "no_prompt", message: "No prompt provided", details: "" },
          node_errors: {},
        });
      const refused = validate(prompt);
      if (refused) return sendJson(res, 400, refused);
      counters.prompts++;
      received.push(prompt);
      const item = {
        number: number++,
        id: crypto.randomUUID(),
        prompt,
        clientId: String(fields.client_id ?? ""),
      };
      queue.push(item);
      sendJson(res, 200, { prompt_id: item.id, number: item.number, node_errors: {} });
      return void setImmediate(() => void next());
    }
    const historyId = /^\/history\/([\w-]+)$/.exec(url.pathname)?.[1];
    if (req.method === "GET" && historyId)
      return sendJson(res, 200, historyId in history ? { [historyId]: history[historyId] } : {});
    if (route === "GET /view") {
      const sub = url.searchParams.get("subfolder") ?? "";
      const name = `${sub ? `${sub}/` : ""}${url.searchParams.get("filename") ?? ""}`;
      const file = files.get(name);
      return file ? sendMedia(res, file.type, file.bytes) : void res.writeHead(404).end();
    }
    if (route === "POST /queue") {
      const ids = Array.isArray(fields.delete) ? fields.delete.map(String) : [];
      counters.deletes += ids.length;
      queue = queue.filter((item) => !ids.includes(item.id));
      return void res.writeHead(200).end();
    }
    if (route === "POST /interrupt") {
      counters.interrupts++;
      if (running && (!fields.prompt_id || fields.prompt_id === running.id)) interrupted = true;
      release();
      return void res.writeHead(200).end();
    }
    // The e2e suite's remote control: lets a held run go on.
    if (route === "POST /__fake/release") {
      release();
      return void res.writeHead(204).end();
    }
    res.writeHead(404).end();
  }

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname !== "/ws" || state.refuseSockets || !authorised(req)) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get("clientId") ?? crypto.randomUUID();
      counters.sockets++;
      sockets.set(clientId, ws);
      ws.on("close", () => sockets.get(clientId) === ws && sockets.delete(clientId));
      ws.send(
        JSON.stringify({
          type: "status",
          data: { status: { exec_info: { queue_remaining: queue.length } }, sid: clientId },
        }),
      );
      // As server.py does: a client that reconnects is told the node it is running.
      if (running?.clientId === clientId && lastNode)
        ws.send(
          JSON.stringify({ type: "executing", data: { node: lastNode, prompt_id: running.id } }),
        );
      events.emit("socket", clientId);
    });
  };

  const start = async (port = 0) => {
    const listening = await listen(handle, port);
    listening.server.on("upgrade", upgrade);
    return listening;
  };
  let server: Listening = await start(options.port);
  const port = Number(new URL(server.origin).port);

  function release() {
    held?.();
    held = null;
  }

  return {
    url: server.origin,
    state,
    counters,
    received,
    events,
    release,
    /** Closes every open WebSocket from the server's side. */
    dropSockets() {
      for (const socket of sockets.values()) socket.terminate();
    },
    /** Stops and starts again on the same port, forgetting the queue and history. */
    async restart() {
      for (const socket of sockets.values()) socket.terminate();
      await server.close();
      running = null;
      release();
      queue = [];
      history = {};
      server = await start(port);
    },
    async close() {
      release();
      for (const socket of sockets.values()) socket.terminate();
      wss.close();
      await server.close();
    },
  };
}

export type FakeComfyUI = Awaited<ReturnType<typeof startFakeComfyUI>>;
