import { zApiTokenParams, zCreateApiTokenRequest } from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { createApiToken, listApiTokens, revokeApiToken } from "../commands/api-tokens.ts";
import type { AppContext } from "../context.ts";
import { requireUser } from "../http/session.ts";
import { presentApiToken } from "../http/token-presenters.ts";
import { assertCanManageApiTokens } from "../policy/access.ts";

/**
 * Personal API tokens for headless use (`Authorization: Bearer <token>` on any other /api
 * route). An account's signed-in session manages them; a token cannot (403).
 */
export async function tokenRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  // The only answer that ever carries the token's text.
  app.post("/api/tokens", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    assertCanManageApiTokens(user);
    const { name } = zCreateApiTokenRequest.parse(request.body ?? {});
    return reply.code(201).send(await createApiToken(db, user.id, name));
  });

  app.get("/api/tokens", async (request) => {
    const user = await requireUser(ctx.auth, request);
    assertCanManageApiTokens(user);
    return { tokens: (await listApiTokens(db, user.id)).map(presentApiToken) };
  });

  app.delete("/api/tokens/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    assertCanManageApiTokens(user);
    const { id } = zApiTokenParams.parse(request.params);
    await revokeApiToken(db, user.id, id);
    return { success: true };
  });
}
