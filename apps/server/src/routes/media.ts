import { LIMITS, UPLOAD_MESSAGES, WORKFLOW_ERRORS } from "@atelier/core";
import type {} from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { deleteMedia, listWorkflowMedia, readMediaFile } from "../commands/media-files.ts";
import { storeUpload } from "../commands/uploads.ts";
import type { AppContext } from "../context.ts";
import { HttpError } from "../http/errors.ts";
import { addressOf, tooManyRequests } from "../http/limits.ts";
import { presentMedia, presentUpload } from "../http/media-presenters.ts";
import { currentUser, requireUser } from "../http/session.ts";
import { shareTokenOf } from "../http/share-token.ts";
import { uploadBudgets } from "../http/upload-budgets.ts";
import { assertCanDeleteMedia, assertCanUploadTo, uploadRefusedEarly } from "../policy/access.ts";

const zFields = z.object({
  workflowId: z.string().min(1).max(200),
  kind: z.string().optional(),
  nodeId: z.string().max(200).optional(),
  outputKey: z.string().max(100).optional(),
});

/** Files are served inert: their sniffed type, no sniffing, no script, no same-origin power. */
const SERVE_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  "cross-origin-resource-policy": "cross-origin",
  "cache-control": `public, max-age=${LIMITS.upload.cacheControlSeconds}`,
};

const MINUTE = 60_000;

export async function mediaRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const budgets = uploadBudgets(app, ctx.config.limits);
  const perAddress = ctx.config.limits.uploadsPerMinute;

  app.post(
    "/api/media",
    {
      config: {
        rateLimit: {
          max: perAddress,
          timeWindow: MINUTE,
          errorResponseBuilder: (_request, context) =>
            tooManyRequests(
              `Too many uploads from this address: at most ${perAddress} a minute`,
              context.ttl / 1000,
            ),
        },
      },
    },
    async (request, reply) => {
      const user = await currentUser(ctx.auth, request);
      const session = user ? `user:${user.id}` : `address:${addressOf(request)}`;
      const anonymous = !user || user.isAnonymous;
      await budgets.admit(request, session, anonymous);
      const fields: Record<string, string> = {};
      let file: { name: string; type: string; buffer: Buffer } | null = null;
      try {
        for await (const part of request.parts({
          limits: { fileSize: LIMITS.upload.maxFileBytes, files: 1, fields: 10 },
        })) {
          if (part.type === "file") {
            if (file) throw new HttpError(400, "Send one file per upload");
            // Refuse before reading the bytes when the fields already say no.
            if (uploadRefusedEarly(user, fields.workflowId))
              throw new HttpError(401, WORKFLOW_ERRORS.notAuthenticated);
            file = { name: part.filename, type: part.mimetype, buffer: await part.toBuffer() };
            budgets.received(request, session, file.buffer.length);
          } else if (typeof part.value === "string") {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (error) {
        if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
          throw new HttpError(413, UPLOAD_MESSAGES.tooLarge);
        // Busboy's complaints about a broken body carry no status: they are the client's.
        if (error instanceof Error && !("statusCode" in error))
          throw new HttpError(400, `Invalid upload: ${error.message}`);
        throw error;
      }
      if (!file) throw new HttpError(400, "No file was sent");
      const { workflowId, kind, nodeId, outputKey } = zFields.parse(fields);

      // Signed out: only the temporary workflow, under the anonymous folder (SPEC §6).
      const owner = await assertCanUploadTo(db, user, workflowId, shareTokenOf(request));
      const stored = await storeUpload(
        {
          db,
          store: ctx.store,
          beforeStore: (bytes) => {
            if (anonymous) budgets.store(request, session, bytes);
          },
        },
        { file, owner, userId: user?.id ?? null, workflowId, kind, nodeId, outputKey },
      );
      return reply.code(201).send(presentUpload(ctx.config.publicUrl, stored));
    },
  );

  // Files are addressed by unguessable paths (a public bucket, SPEC §7), served inert.
  app.get("/api/media/file/*", async (request, reply) => {
    const path = (request.params as { "*": string })["*"];
    const { mimeType, blob } = await readMediaFile(db, ctx.store, path);
    reply.headers({
      ...SERVE_HEADERS,
      "content-type": mimeType,
      "content-length": String(blob.size),
    });
    return reply.send(blob.body);
  });

  app.get("/api/media", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { workflowId } = z.object({ workflowId: z.string().min(1) }).parse(request.query ?? {});
    const rows = await listWorkflowMedia(db, user.id, workflowId);
    return { media: rows.map((row) => presentMedia(ctx.config.publicUrl, row)) };
  });

  app.delete("/api/media/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = z.object({ id: z.string().min(1) }).parse(request.params);
    const row = await assertCanDeleteMedia(db, user, id);
    await deleteMedia(db, ctx.store, user.id, row.id);
    return { success: true };
  });
}
