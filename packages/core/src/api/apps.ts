import { z } from "zod";
import { zId } from "./common.ts";
import { zRunNode } from "./runs.ts";

/**
 * Published apps (issue 22): the owner exposes some inputs and outputs of a workflow and
 * publishes it; `/a/{slug}` is a form that runs the published version through the run engine.
 */
export const APP_LIMITS = {
  fields: 20,
  outputs: 10,
  nameLength: 100,
  descriptionLength: 1000,
  labelLength: 80,
  /** Longest text value a form field accepts. */
  textLength: 20_000,
} as const;

/** Who may open `/a/{slug}`: anyone signed in, or only holders of a run link. */
export const APP_ACCESS = ["public", "link"] as const;
export type AppAccess = (typeof APP_ACCESS)[number];

export const APP_MESSAGES = {
  notFound: "App not found or not shared with you",
  notPublished: "This workflow has no published app",
  nameRequired: "The app needs a name",
  noOutputs: "Pick at least one output to show",
  unknownNode: (id: string) => `The workflow has no node ${id}`,
  unknownParam: (node: string, param: string) => `${node} has no setting "${param}"`,
  notMediaHolder: (node: string) => `${node} does not hold an uploaded file`,
  noOutputPort: (node: string) => `${node} makes no output to show`,
  fieldTwice: (label: string) => `"${label}" is exposed twice`,
  badValue: (label: string, problem: string) => `${label}: ${problem}`,
  mediaRequired: (label: string) => `${label}: upload a file`,
  badMedia: (label: string) => `${label}: not a file uploaded here`,
} as const;

/** One exposed input: a setting of a node, or the file an upload node holds. */
export const zAppField = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("param"),
    nodeId: zId,
    param: z.string().min(1).max(200),
    label: z.string().max(APP_LIMITS.labelLength).optional(),
  }),
  z.strictObject({
    kind: z.literal("media"),
    nodeId: zId,
    label: z.string().max(APP_LIMITS.labelLength).optional(),
  }),
]);
export type AppField = z.infer<typeof zAppField>;

export const zAppOutput = z.strictObject({
  nodeId: zId,
  label: z.string().max(APP_LIMITS.labelLength).optional(),
});
export type AppOutput = z.infer<typeof zAppOutput>;

/** PUT /api/workflows/{id}/app — publish (or republish) the workflow's saved version. */
export const zPublishAppRequest = z.strictObject({
  name: z.string().max(APP_LIMITS.nameLength),
  description: z.string().max(APP_LIMITS.descriptionLength).optional(),
  access: z.enum(APP_ACCESS).default("public"),
  fields: z.array(zAppField).max(APP_LIMITS.fields),
  outputs: z.array(zAppOutput).max(APP_LIMITS.outputs),
});
export type PublishAppRequest = z.input<typeof zPublishAppRequest>;

/** A form field as the app page draws it. */
export const zAppFormField = z.object({
  /** `{nodeId}/{param}` or `{nodeId}/file`: the key of its value in a run request. */
  id: z.string(),
  label: z.string(),
  input: z.discriminatedUnion("type", [
    z.object({ type: z.literal("text"), multiline: z.boolean(), default: z.string() }),
    z.object({ type: z.literal("select"), options: z.array(z.string()), default: z.string() }),
    z.object({
      type: z.literal("number"),
      min: z.number(),
      max: z.number(),
      integer: z.boolean(),
      default: z.number(),
    }),
    z.object({ type: z.literal("flag"), default: z.boolean() }),
    z.object({ type: z.literal("seed"), default: z.number().nullable() }),
    z.object({ type: z.literal("media"), accept: z.string() }),
  ]),
});
export type AppFormField = z.infer<typeof zAppFormField>;

export const zAppFormOutput = z.object({ nodeId: z.string(), label: z.string() });

/** GET /api/apps/{slug}: the published form (never the workflow behind it). */
export const zAppView = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  access: z.enum(APP_ACCESS),
  version: z.number().int(),
  publishedAt: z.string(),
  fields: z.array(zAppFormField),
  outputs: z.array(zAppFormOutput),
  /** True for the workflow's owner (who sees every run of the app). */
  isOwner: z.boolean(),
});
export type AppView = z.infer<typeof zAppView>;

/** The owner's publishing settings (GET|PUT /api/workflows/{id}/app). */
export const zAppSettings = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  access: z.enum(APP_ACCESS),
  version: z.number().int(),
  publishedAt: z.string(),
  fields: z.array(zAppField),
  outputs: z.array(zAppOutput),
});
export type AppSettings = z.infer<typeof zAppSettings>;

/** POST /api/apps/{slug}/runs — values by form field id. */
export const zAppRunRequest = z.strictObject({
  values: z.record(z.string().max(420), z.unknown()),
});
export type AppRunRequest = z.infer<typeof zAppRunRequest>;

/** An app run as the app page shows it: the exposed outputs only. */
export const zAppRun = z.object({
  id: zId,
  status: z.string(),
  version: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** The runner, for the owner's history; null in one's own. */
  runBy: z.string().nullable(),
  progress: z.number().nullable(),
  outputs: z.array(
    z.object({
      nodeId: z.string(),
      label: z.string(),
      status: zRunNode.shape.status,
      /** Media URLs or text the node produced. */
      values: z.array(z.string()),
      error: z.string().optional(),
    }),
  ),
});
export type AppRun = z.infer<typeof zAppRun>;

export const zAppParams = z.object({ slug: z.string().min(1).max(120) });
export const zAppRunParams = zAppParams.extend({ runId: zId });

export const zAppSettingsResponse = z.object({ app: zAppSettings });
export const zAppViewResponse = z.object({ app: zAppView });
export const zAppRunResponse = z.object({ run: zAppRun });
export const zAppRunListResponse = z.object({ runs: z.array(zAppRun) });
