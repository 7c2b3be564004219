import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SessionUser } from "../auth/session-user.ts";
import type { AbuseLimits } from "../env-limits.ts";
import { addressOf, tooManyRequests } from "./limits.ts";

/** Open streams per HTTP server (shared by every encapsulated plugin of one app). */
const open = new WeakMap<object, Set<ServerResponse>>();
/** Open streams by key ("user:…", "address:…") per HTTP server. */
const counts = new WeakMap<object, Map<string, number>>();

/** Requests answered with a stream (their latency is how long they stayed open). */
const streamed = new WeakSet<object>();

/** What a refused stream's client is told to wait (the web app tries again after 30 s). */
export const STREAM_RETRY_SECONDS = 30;

/**
 * Counts a new stream of `user` against the caps (EVENT_STREAMS_PER_USER, and for anonymous
 * sessions ANONYMOUS_EVENT_STREAMS_PER_ADDRESS): over one, the new stream is refused with
 * a 429 and the open ones stay (closing the oldest instead would make two tabs take turns
 * evicting each other, each reconnecting at once). Answers the release of the slot.
 */
function admitStream(request: FastifyRequest, user: SessionUser, limits: AbuseLimits) {
  const byKey = counts.get(request.server.server) ?? new Map<string, number>();
  counts.set(request.server.server, byKey);
  const caps: [string, number, string][] = [
    [
      `user:${user.id}`,
      limits.eventStreamsPerUser,
      `Too many event streams open: at most ${limits.eventStreamsPerUser} per user (close another tab)`,
    ],
  ];
  if (user.isAnonymous)
    caps.push([
      `address:${addressOf(request)}`,
      limits.anonymousEventStreamsPerAddress,
      `Too many event streams open from this address: at most ${limits.anonymousEventStreamsPerAddress} for anonymous sessions (sign in, or close another tab)`,
    ]);
  for (const [key, max, limit] of caps)
    if ((byKey.get(key) ?? 0) >= max) throw tooManyRequests(limit, STREAM_RETRY_SECONDS);
  for (const [key] of caps) byKey.set(key, (byKey.get(key) ?? 0) + 1);
  return () => {
    for (const [key] of caps) {
      const left = (byKey.get(key) ?? 1) - 1;
      if (left > 0) byKey.set(key, left);
      else byKey.delete(key);
    }
  };
}

export interface EventStream {
  send(event: string, data: unknown): void;
  /** Runs `cleanup` when the stream closes — at once if it already has. */
  onClose(cleanup: () => void): void;
}

/**
 * Turns a request into a server-sent event stream (kept alive every 15 s), once the stream
 * fits the user's caps (else a 429 is thrown). Streams never end by themselves, so the app
 * ends them when it closes. A client gone before the stream opened (while the route awaited
 * its session or rows) frees its slot at once: its close event has already passed.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  owner: { user: SessionUser; limits: AbuseLimits },
): EventStream {
  const release = admitStream(request, owner.user, owner.limits);
  streamed.add(request.raw);
  reply.hijack();
  const stream = reply.raw;
  const cleanups: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    streams.delete(stream);
    release();
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  const streams = open.get(request.server.server) ?? new Set();
  open.set(request.server.server, streams);
  const keepAlive = setInterval(() => stream.write(": keep-alive\n\n"), 15_000);
  if (stream.destroyed || request.raw.socket?.destroyed === true) {
    close();
  } else {
    stream.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    streams.add(stream);
    stream.on("close", close);
  }
  return {
    send: (event, data) => {
      if (!closed) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    onClose: (cleanup) => {
      if (closed) cleanup();
      else cleanups.push(cleanup);
    },
  };
}

/** True when the request was answered with an event stream. */
export function isEventStream(request: FastifyRequest): boolean {
  return streamed.has(request.raw);
}

/** How many event streams the app has open now (the SSE clients metric). */
export function openEventStreamCount(app: FastifyInstance): number {
  return open.get(app.server)?.size ?? 0;
}

/** Ends every open stream (the app is closing: browsers reconnect to another process). */
export function closeEventStreams(app: FastifyInstance): void {
  for (const stream of open.get(app.server) ?? []) stream.end();
}
