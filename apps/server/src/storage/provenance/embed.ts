import { PROVENANCE_KEYWORD, type Provenance, provenanceXmp } from "@atelier/core";
import { withPngText } from "./png-chunks.ts";
import { withJpegXmp, withWebpXmp } from "./xmp-embed.ts";

export interface WithProvenance {
  /** The file to store: with its provenance inside when the format holds it. */
  body: Buffer;
  /** Otherwise the provenance JSON, stored next to the file (`<path>.atelier.json`). */
  sidecar: Buffer | null;
}

/**
 * Puts a result's provenance where its format allows: a PNG `iTXt` chunk, XMP in WebP and
 * JPEG; video, audio, 3D and the rest (or a JPEG whose packet outgrows its 64 KB segment)
 * get a sidecar JSON. Done after inspection, which only checks bytes: nothing re-encodes.
 */
export function embedProvenance(
  body: Buffer,
  mimeType: string,
  provenance: Provenance,
): WithProvenance {
  const json = JSON.stringify(provenance);
  let embedded: Buffer | null = null;
  try {
    if (mimeType === "image/png") embedded = withPngText(body, PROVENANCE_KEYWORD, json);
    else if (mimeType === "image/jpeg") embedded = withJpegXmp(body, provenanceXmp(json));
    else if (mimeType === "image/webp") embedded = withWebpXmp(body, provenanceXmp(json));
  } catch {
    embedded = null;
  }
  return embedded
    ? { body: embedded, sidecar: null }
    : { body, sidecar: Buffer.from(json, "utf8") };
}
