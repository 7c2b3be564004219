import {
  ALLOWED_MIME_TYPES,
  fileExtension,
  kindsOfExtension,
  LIMITS,
  UPLOAD_MESSAGES,
  validateUpload,
  WORKFLOW_ERRORS,
} from "@atelier/core";
import type {} from "@fastify/multipart";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { z } from "zod";
import {
  ANONYMOUS_FOLDER,
  mediaPath,
  recordMedia,
  removeUnreferencedFiles,
  TEMPORARY_WORKFLOW_ID,
} from "../commands/media.ts";
import { getOwnWorkflowRow } from "../commands/workflows.ts";
import type { AppContext } from "../context.ts";
import { workflowMediaManifest } from "../db/schema.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { addressOf, tooManyRequests } from "../http/limits.ts";
import { currentUser, requireUser } from "../http/session.ts";
import { uploadBudgets } from "../http/upload-budgets.ts";
import { inspectUpload } from "../storage/inspect.ts";

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

const DECODABLE_IMAGES = new Set(["jpg", "jpeg", "png", "gif", "webp"]);

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
            if (
              !user &&
              fields.workflowId !== undefined &&
              fields.workflowId !== TEMPORARY_WORKFLOW_ID
            ) {
              throw new HttpError(401, WORKFLOW_ERRORS.notAuthenticated);
            }
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
      let owner: string;
      if (user) {
        if (workflowId !== TEMPORARY_WORKFLOW_ID) await getOwnWorkflowRow(db, user.id, workflowId);
        owner = user.id;
      } else {
        if (workflowId !== TEMPORARY_WORKFLOW_ID)
          throw new HttpError(401, WORKFLOW_ERRORS.notAuthenticated);
        owner = ANONYMOUS_FOLDER;
      }

      const problem = validateUpload(
        { name: file.name, size: file.buffer.length, type: file.type },
        kind,
      );
      if (problem)
        throw new HttpError(file.buffer.length > LIMITS.upload.maxFileBytes ? 413 : 400, problem);
      const extension = fileExtension(file.name);
      // A declared type must fit the extension too (a PNG sent as video/mp4 is refused).
      const declared = (file.type || "").toLowerCase().split(";")[0]?.trim() ?? "";
      const kinds = kindsOfExtension(extension);
      if (
        declared &&
        declared !== "application/octet-stream" &&
        !kinds.some((k) => ALLOWED_MIME_TYPES[k].includes(declared))
      ) {
        throw new HttpError(
          400,
          UPLOAD_MESSAGES.mimeNotValidForKind(declared, kind ?? kinds[0] ?? "media"),
        );
      }
      const declaredKind = kind?.toLowerCase() === "model" ? "3d" : (kind?.toLowerCase() as never);
      const inspected = await inspectUpload(file.buffer, extension, declaredKind);
      if (DECODABLE_IMAGES.has(extension)) {
        await sharp(inspected.body, { limitInputPixels: 100_000_000 })
          .metadata()
          .catch(() => {
            throw new HttpError(400, "The image could not be read");
          });
      }

      if (anonymous) budgets.store(request, session, inspected.body.length);
      const path = mediaPath(owner, workflowId, extension);
      await ctx.store.put(path, inspected.body, inspected.mimeType);
      const row = await recordMedia(db, {
        workflowId,
        userId: user?.id ?? null,
        filePath: path,
        fileSize: inspected.body.length,
        mimeType: inspected.mimeType,
        nodeId: nodeId ?? null,
        outputKey: outputKey ?? null,
      });
      return reply
        .code(201)
        .send({ id: row.id, url: `${ctx.config.publicUrl}/api/media/file/${path}`, path });
    },
  );

  // Files are addressed by unguessable paths (a public bucket, SPEC §7), served inert.
  app.get("/api/media/file/*", async (request, reply) => {
    const path = (request.params as { "*": string })["*"];
    const [row] = await db
      .select({ mimeType: workflowMediaManifest.mimeType })
      .from(workflowMediaManifest)
      .where(eq(workflowMediaManifest.filePath, path))
      .limit(1);
    if (!row) throw notFound();
    const blob = await ctx.store.get(path);
    if (!blob) throw notFound();
    reply.headers({
      ...SERVE_HEADERS,
      "content-type": row.mimeType,
      "content-length": String(blob.size),
    });
    return reply.send(blob.body);
  });

  app.get("/api/media", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { workflowId } = z.object({ workflowId: z.string().min(1) }).parse(request.query ?? {});
    const rows = await db
      .select()
      .from(workflowMediaManifest)
      .where(
        and(
          eq(workflowMediaManifest.userId, user.id),
          eq(workflowMediaManifest.workflowId, workflowId),
        ),
      );
    return {
      media: rows.map((row) => ({
        id: row.id,
        workflow_id: row.workflowId,
        node_id: row.nodeId,
        output_key: row.outputKey,
        file_path: row.filePath,
        file_size: row.fileSize,
        mime_type: row.mimeType,
        user_id: row.userId,
        uploaded_at: row.uploadedAt.toISOString(),
        url: `${ctx.config.publicUrl}/api/media/file/${row.filePath}`,
      })),
    };
  });

  app.delete("/api/media/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = z.object({ id: z.string().min(1) }).parse(request.params);
    const [removed] = await db
      .delete(workflowMediaManifest)
      .where(and(eq(workflowMediaManifest.id, id), eq(workflowMediaManifest.userId, user.id)))
      .returning({ filePath: workflowMediaManifest.filePath });
    if (!removed) throw notFound("Media not found");
    await removeUnreferencedFiles(db, ctx.store, [removed.filePath]);
    return { success: true };
  });
}
