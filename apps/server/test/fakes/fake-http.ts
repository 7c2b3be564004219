import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import sharp from "sharp";

/*
 * The HTTP plumbing every fake provider server shares: the transport faults and the per-route
 * fault queue, applying a fault to a response, JSON/byte senders (mangled by `truncated` /
 * `malformed`), body reading, small media, and starting on 127.0.0.1:0 / closing. What a
 * vendor answers (error bodies, refusals, scripts) stays in each fake.
 */

/** Waits `ms` before answering normally. */
export type DelayFault = { kind: "delay"; ms: number };
/** 429 with `Retry-After` (default "7"). */
export type RateLimitFault = { kind: "rate_limit"; retryAfter?: string };
/** Faults of the connection itself, whatever the vendor. */
export type ConnectionFault =
  /** Never answers until the client gives up or the fake closes. */
  | { kind: "hang" }
  /** Drops the connection without answering. */
  | { kind: "reset" }
  /** Declares the full Content-Length, sends half, drops the connection. */
  | { kind: "truncated" }
  | { kind: "malformed" };

/** Per-route queues of faults: `add` makes the next `times` calls fail, `take` pops one. */
export interface FaultQueue<R extends string, F> {
  add(route: R, fault: F, times?: number): void;
  take(route: R): F | undefined;
}

export function faultQueue<R extends string, F>(): FaultQueue<R, F> {
  const faults = new Map<R, Array<{ fault: F; left: number }>>();
  return {
    add(route, fault, times = 1) {
      faults.set(route, [...(faults.get(route) ?? []), { fault, left: times }]);
    },
    take(route) {
      const entry = (faults.get(route) ?? []).find((f) => f.left > 0);
      if (entry) entry.left--;
      return entry?.fault;
    },
  };
}

/** True when `fault` is one of `kinds` (e.g. the refusals that create nothing). */
export const isKind = (fault: { kind: string } | undefined, kinds: readonly string[]) =>
  fault !== undefined && kinds.includes(fault.kind);

/**
 * Applies a fault that replaces the whole response; true when the request is handled.
 * `delay` waits then lets the request go on, `hang` never answers, `reset` drops the
 * connection; any other kind is the vendor's (`vendor` answers it, or it is not a replacement).
 */
export async function applyFault<F extends { kind: string }>(
  res: ServerResponse,
  fault: F | undefined,
  vendor: (fault: F) => boolean = () => false,
): Promise<boolean> {
  switch (fault?.kind) {
    case undefined:
      return false;
    case "delay":
      await new Promise((resolve) => setTimeout(resolve, (fault as unknown as DelayFault).ms));
      return false;
    case "hang":
      return true;
    case "reset":
      res.socket?.destroy();
      return true;
    default:
      return vendor(fault as F);
  }
}

/** Sets `Retry-After` (default "7"; null: none). */
export function retryAfter(res: ServerResponse, value: string | null | undefined): void {
  if (value !== null) res.setHeader("retry-after", value ?? "7");
}

/** Sends bytes, mangled by a `truncated`/`malformed` fault when one applies. */
export function sendBytes(
  res: ServerResponse,
  status: number,
  type: string | undefined,
  bytes: Buffer,
  fault?: { kind: string },
): void {
  const headers = type ? { "content-type": type } : {};
  if (fault?.kind === "malformed") {
    const cut = bytes.subarray(0, -3);
    res.writeHead(status, { ...headers, "content-length": cut.length }).end(cut);
  } else if (fault?.kind === "truncated") {
    res.writeHead(status, { ...headers, "content-length": bytes.length });
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
  } else {
    res.writeHead(status, { ...headers, "content-length": bytes.length }).end(bytes);
  }
}

/** Sends `body` as JSON, mangled by a `truncated`/`malformed` fault when one applies. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  fault?: { kind: string },
  type = "application/json",
): void {
  sendBytes(res, status, type, Buffer.from(JSON.stringify(body)), fault);
}

/** Adds one to `record[key]`. */
export function bump(record: Record<string, number>, key: string): void {
  record[key] = (record[key] ?? 0) + 1;
}

/** The whole request body. */
export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** JSON when it parses, else the text; null when empty. */
export function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw.toString());
  } catch {
    return raw.toString();
  }
}

/** Parses a multipart body (`type` is its content-type, with the boundary). */
export function readForm(raw: Buffer, type: string): Promise<FormData> {
  return new Response(new Uint8Array(raw), { headers: { "content-type": type } }).formData();
}

/** A file part of a multipart request. */
export interface FakeFile {
  name: string;
  type: string;
  size: number;
  bytes: Buffer;
}

export const isFile = (v: unknown): v is FakeFile =>
  typeof v === "object" && v !== null && "bytes" in v;

/** A JSON or multipart body: multipart fields by name (repeated → arrays), files as FakeFile. */
export async function readBody(req: IncomingMessage, type: string): Promise<unknown> {
  const raw = await readRaw(req);
  if (raw.length === 0 || !type.startsWith("multipart/form-data")) return parseBody(raw);
  const out: Record<string, unknown> = {};
  for (const [name, value] of (await readForm(raw, type)).entries()) {
    const item =
      typeof value === "string"
        ? value
        : {
            name: value.name,
            type: value.type,
            size: value.size,
            bytes: Buffer.from(await value.arrayBuffer()),
          };
    const prev = out[name];
    out[name] = prev === undefined ? item : Array.isArray(prev) ? [...prev, item] : [prev, item];
  }
  return out;
}

/** Serves a small media file as is. */
export function sendMedia(res: ServerResponse, type: string, bytes: Buffer): void {
  res.writeHead(200, { "content-type": type, "content-length": bytes.length }).end(bytes);
}

/** A small solid image in `format` (png, jpeg, webp), made by sharp. */
export function imageBytes(format = "png", width = 8, height = 8, background = "#e11d48") {
  return sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format as "png")
    .toBuffer();
}

/** A fake listening on 127.0.0.1 at an ephemeral port. */
export interface Listening {
  server: Server;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Closes the server, destroying open connections (hanging ones too) so it never waits. */
  close(): Promise<void>;
}

/** Starts `handle` on 127.0.0.1:0; a handler that throws answers 500 when it still can. */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port = 0,
): Promise<Listening> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  // Every socket, upgraded ones too: closeAllConnections() forgets a socket once it is
  // upgraded to a WebSocket, and server.close() would then wait for it.
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
