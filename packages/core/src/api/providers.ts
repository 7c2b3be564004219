import { z } from "zod";

/** The services that run nodes, by id, for people. */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  local: "Offline (this server)",
  fal: "fal",
  runway: "Runway",
  luma: "Luma",
  google: "Google",
  openai: "OpenAI",
  elevenlabs: "ElevenLabs",
  comfyui: "ComfyUI",
  replicate: "Replicate",
};

export const providerName = (id: string) => PROVIDER_NAMES[id] ?? id;

/**
 * One configured provider as GET /api/providers reports it: `ok` or `down` when it can be
 * checked for free (ComfyUI's /object_info), `unchecked` when only a paid call would tell.
 */
export const zProviderReport = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(["ok", "down", "unchecked"]),
  detail: z.string().nullable(),
  /** Its instances (ComfyUI pools), each reachable or not. */
  instances: z.array(z.object({ url: z.string(), ok: z.boolean(), error: z.string().nullable() })),
  /** The node types it can run here; `missing` says what an instance lacks for one. */
  nodes: z.array(
    z.object({
      type: z.string(),
      displayName: z.string(),
      runnable: z.boolean(),
      missing: z.string().nullable(),
    }),
  ),
});
export type ProviderReport = z.infer<typeof zProviderReport>;

export const zProvidersAnswer = z.object({
  providers: z.array(zProviderReport),
  /** PROVIDER_ORDER: the operator's preference where several providers can run a node. */
  order: z.array(z.string()),
});
export type ProvidersAnswer = z.infer<typeof zProvidersAnswer>;
