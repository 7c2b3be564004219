import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Open streams per HTTP server (shared by every encapsulated plugin of one app). */
const open = new WeakMap<object, Set<ServerResponse>>();

/**
 * Turns a request into a server-sent event stream (kept alive every 15 s) and returns its
 * `send`. Streams never end by themselves, so the app ends them when it closes.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  onClose: () => void,
): (event: string, data: unknown) => void {
  reply.hijack();
  const stream = reply.raw;
  stream.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  const streams = open.get(request.server.server) ?? new Set();
  open.set(request.server.server, streams);
  streams.add(stream);
  const keepAlive = setInterval(() => stream.write(": keep-alive\n\n"), 15_000);
  request.raw.on("close", () => {
    clearInterval(keepAlive);
    streams.delete(stream);
    onClose();
  });
  return (event, data) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Ends every open stream (the app is closing: browsers reconnect to another process). */
export function closeEventStreams(app: FastifyInstance): void {
  for (const stream of open.get(app.server) ?? []) stream.end();
}
