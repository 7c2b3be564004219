import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { jobForCallback } from "../policy/access.ts";
import { createFalWebhookVerifier } from "../providers/fal/webhook.ts";

const zToken = z.object({ token: z.string().regex(/^[a-f0-9]{48}$/) });

/**
 * Provider callbacks. They are only hints: a verified (fal) or token-addressed (Luma)
 * callback makes the engine check the job now, through the same idempotent step as polling.
 */
export async function callbackRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const jwksUrl = ctx.config.generation.fal?.jwksUrl;
  const falVerifier = createFalWebhookVerifier(jwksUrl ? { jwksUrl } : {});

  await app.register(async (scope) => {
    // fal signs the raw body: keep it as bytes.
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );

    scope.post("/api/callbacks/fal/:token", async (request, reply) => {
      const { token } = zToken.parse(request.params);
      const job = await jobForCallback(db, "fal", token);
      if (!job) return reply.code(404).send({ error: "Not found" });
      const verdict = await falVerifier.verify(
        request.headers as Record<string, string>,
        request.body as Buffer,
      );
      if (!verdict.ok) {
        request.log.warn({ reason: verdict.reason }, "fal webhook refused");
        return reply
          .code(verdict.reason === "jwks_unavailable" ? 503 : 401)
          .send({ error: "Refused" });
      }
      if (verdict.requestId !== job.providerRequestId)
        return reply.code(404).send({ error: "Not found" });
      await (await ctx.generation()).engine.nudge(job.id);
      return { ok: true };
    });

    // Luma callbacks are unsigned: the unguessable token addresses the job, and the engine
    // re-reads the generation with our key instead of trusting the body.
    scope.post("/api/callbacks/luma/:token", async (request, reply) => {
      const { token } = zToken.parse(request.params);
      const job = await jobForCallback(db, "luma", token);
      if (!job) return reply.code(404).send({ error: "Not found" });
      await (await ctx.generation()).engine.nudge(job.id);
      return { ok: true };
    });
  });
}
