import { EventEmitter } from "node:events";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it, vi } from "vitest";
import type { AbuseLimits } from "../src/env-limits.ts";
import { openEventStream } from "../src/http/event-stream.ts";

/** A request whose client hung up while the route awaited its session or rows. */
function goneClient(server: object) {
  const raw = Object.assign(new EventEmitter(), { socket: { destroyed: true } });
  const response = Object.assign(new EventEmitter(), {
    destroyed: true,
    writeHead: vi.fn(),
    write: vi.fn(),
  });
  const request = { server: { server }, raw, ip: "127.0.0.1" } as unknown as FastifyRequest;
  const reply = { hijack: vi.fn(), raw: response } as unknown as FastifyReply;
  return { request, reply, response };
}

describe("event streams of clients already gone", () => {
  const owner = {
    user: { id: "u1", email: "u1@example.com", name: "U", isAnonymous: false },
    limits: { eventStreamsPerUser: 1, anonymousEventStreamsPerAddress: 1 } as AbuseLimits,
  };

  it("free their slot at once, run their cleanup, and send nothing (no lasting 429)", () => {
    const server = {};
    const cleanup = vi.fn();
    for (let count = 0; count < 3; count++) {
      const { request, reply, response } = goneClient(server);
      const stream = openEventStream(request, reply, owner);
      stream.send("ready", {});
      stream.onClose(cleanup);
      expect(response.write).not.toHaveBeenCalled();
    }
    expect(cleanup).toHaveBeenCalledTimes(3);
  });
});
