import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { jobForCallback } from "../policy/access.ts";
import { createFalWebhookVerifier } from "../providers/fal/webhook.ts";
import { REPLICATE_BASE_URL } from "../providers/replicate/replicate-provider.ts";
import {
  createReplicateWebhookVerifier,
  fetchReplicateWebhookSecret,
} from "../providers/replicate/webhook.ts";

const zToken = z.object({ token: z.string().regex(/^[a-f0-9]{48}$/) });

/**
 * Provider callbacks. They are only hints: a verified (fal, Replicate) or token-addressed (Luma)
 * callback makes the engine check the job now, through the same idempotent step as polling.
 */
export async function callbackRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const jwksUrl = ctx.config.generation.fal?.jwksUrl;
  const falVerifier = createFalWebhookVerifier(jwksUrl ? { jwksUrl } : {});
  // Replicate signs with one secret per account: REPLICATE_WEBHOOK_SECRET, else the API's.
  const replicate = ctx.config.generation.replicate;
  const replicateVerifier = replicate
    ? createReplicateWebhookVerifier({
        ...(replicate.webhookSecret ? { secret: replicate.webhookSecret } : {}),
        loadSecret: () =>
          fetchReplicateWebhookSecret({
            key: replicate.key,
            baseUrl: replicate.baseUrl ?? REPLICATE_BASE_URL,
          }),
      })
    : null;

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

    // Replicate webhooks are signed: a bad or stale signature changes nothing (401), and a
    // good one only makes the engine re-read the prediction with our token.
    scope.post("/api/callbacks/replicate/:token", async (request, reply) => {
      const { token } = zToken.parse(request.params);
      const job = await jobForCallback(db, "replicate", token);
      if (!job || !replicateVerifier) return reply.code(404).send({ error: "Not found" });
      const verdict = await replicateVerifier.verify(
        request.headers as Record<string, string>,
        (request.body as Buffer | undefined) ?? Buffer.alloc(0),
      );
      if (!verdict.ok) {
        request.log.warn({ reason: verdict.reason }, "replicate webhook refused");
        return reply
          .code(verdict.reason === "secret_unavailable" ? 503 : 401)
          .send({ error: "Refused" });
      }
      if (verdict.predictionId !== job.providerRequestId)
        return reply.code(404).send({ error: "Not found" });
      await (await ctx.generation()).engine.nudge(job.id);
      return { ok: true };
    });
  });
}
