import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.ts";
import { GENERATION_QUEUE } from "../jobs/engine.ts";

async function check(probe: () => Promise<boolean>): Promise<boolean> {
  try {
    return await probe();
  } catch {
    return false;
  }
}

/**
 * GET /api/health → { ok: true }: the process is alive and serving (a liveness probe; it
 * touches nothing else, so a database outage does not get the process restarted).
 * GET /api/ready → { ok, db, queue, storage }; 503 when a part is down (a readiness probe:
 * take the process out of the load balancer until its parts answer).
 */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/api/health", async () => ({ ok: true }));
  app.get("/api/ready", async (_request, reply) => {
    const [db, queue, storage] = await Promise.all([
      check(() => ctx.database.ping()),
      check(async () => Boolean(await (await ctx.generation()).boss.getQueue(GENERATION_QUEUE))),
      check(() => ctx.store.ping()),
    ]);
    const ok = db && queue && storage;
    return reply.code(ok ? 200 : 503).send({ ok, db, queue, storage });
  });
}
