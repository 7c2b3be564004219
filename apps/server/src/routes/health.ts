import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.ts";

async function check(probe: () => Promise<boolean>): Promise<boolean> {
  try {
    return await probe();
  } catch {
    return false;
  }
}

/** GET /api/health → { ok, db, storage }; 503 when a part is down. */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/api/health", async (_request, reply) => {
    const [db, storage] = await Promise.all([
      check(() => ctx.database.ping()),
      check(() => ctx.store.ping()),
    ]);
    const ok = db && storage;
    return reply.code(ok ? 200 : 503).send({ ok, db, storage });
  });
}
