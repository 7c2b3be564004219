import { PROVENANCE_KEYWORD, type Provenance, parseProvenance } from "../api/provenance.ts";
import { isPng, readPngText } from "./png-text.ts";
import { readXmpProvenance } from "./xmp.ts";

export { isPng, readPngText } from "./png-text.ts";
export { provenanceXmp, readXmpProvenance } from "./xmp.ts";

/** The provenance a generated image carries (PNG `iTXt`, or XMP in WebP/JPEG), or null. */
export function readEmbeddedProvenance(bytes: Uint8Array): Provenance | null {
  const json = isPng(bytes) ? readPngText(bytes, PROVENANCE_KEYWORD) : null;
  const found = json ?? readXmpProvenance(bytes);
  return found === null ? null : parseProvenance(found);
}
export { nodeFromProvenance } from "./apply.ts";
