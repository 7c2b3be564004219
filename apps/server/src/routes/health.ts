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

/** GET /api/health → { ok, db, queue, storage }; 503 when a part is down. */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/api/health", async (_request, reply) => {
    const [db, queue, storage] = await Promise.all([
      check(() => ctx.database.ping()),
      check(async () => Boolean(await (await ctx.generation()).boss.getQueue(GENERATION_QUEUE))),
      check(() => ctx.store.ping()),
    ]);
    const ok = db && queue && storage;
    return reply.code(ok ? 200 : 503).send({ ok, db, queue, storage });
  });
}
