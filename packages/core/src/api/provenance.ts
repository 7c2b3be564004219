import { z } from "zod";

/** The PNG `iTXt` keyword (and XMP property name) generated files carry their provenance under. */
export const PROVENANCE_KEYWORD = "atelier";

/** XMP namespace of the `atelier:provenance` property (WebP and JPEG results). */
export const PROVENANCE_XMP_NAMESPACE = "urn:atelier:ns:provenance:1.0/";

/** Video, audio and 3D results keep their provenance in a file next to them: `<path>` + this. */
export const PROVENANCE_SIDECAR_SUFFIX = ".atelier.json";

/** The address of a stored result's sidecar provenance. */
export const provenanceSidecarUrl = (url: string): string => `${url}${PROVENANCE_SIDECAR_SUFFIX}`;

/** Provenance comes from files anyone can make: every field is bounded. */
const text = (max: number) => z.string().max(max).nullable();

/**
 * How a generated file was made (issue 22 §4). `null` where it is not known: `cost` until
 * the operator's pricing lands, `version` for a job no saved workflow version started.
 */
export const zProvenance = z.object({
  /** The catalogue node type that ran. */
  model: text(200),
  provider: text(100),
  /** The provider endpoint the job was sent to (e.g. `local/flux-pro`). */
  endpoint: text(300).optional(),
  /** The node's parameters as the job ran them, without prompt, seed and inline media. */
  parameters: z.record(z.string().max(200), z.unknown()).nullable(),
  seed: z.number().finite().nullable(),
  prompt: text(100_000),
  runId: text(200),
  workflowId: text(200),
  /** The saved workflow version the run was based on. */
  version: text(200),
  /** ISO 8601. */
  createdAt: text(40),
  cost: z.number().finite().nullable(),
});
export type Provenance = z.infer<typeof zProvenance>;

/** A provenance record read from untrusted bytes, or null when it is not one. */
export function parseProvenance(json: string): Provenance | null {
  try {
    const parsed = zProvenance.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
