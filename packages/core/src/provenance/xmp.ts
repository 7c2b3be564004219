import { PROVENANCE_KEYWORD, PROVENANCE_XMP_NAMESPACE } from "../api/provenance.ts";
import { asciiBytes, decodeUtf8 } from "./utf8.ts";

/**
 * The provenance JSON as an XMP packet (WebP and JPEG results): one `atelier:provenance`
 * property whose text is the JSON, XML-escaped.
 */

const PROPERTY = `${PROVENANCE_KEYWORD}:provenance`;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
const UNESCAPES: Record<string, string> = Object.fromEntries(
  Object.entries(ESCAPES).map(([character, entity]) => [entity, character]),
);

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? "");
const unescapeXml = (text: string) =>
  text.replace(/&(?:amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-f]+));/gi, (entity, dec, hex) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    return UNESCAPES[entity] ?? entity;
  });

/** A complete XMP packet holding `json`. */
export function provenanceXmp(json: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:${PROVENANCE_KEYWORD}="${PROVENANCE_XMP_NAMESPACE}">`,
    `<${PROPERTY}>${escapeXml(json)}</${PROPERTY}>`,
    "</rdf:Description>",
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="w"?>',
  ].join("\n");
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  for (let index = haystack.indexOf(first as number, from); index >= 0; ) {
    let match = true;
    for (let offset = 1; offset < needle.length && match; offset++)
      match = haystack[index + offset] === needle[offset];
    if (match) return index;
    index = haystack.indexOf(first as number, index + 1);
  }
  return -1;
}

/**
 * The provenance JSON of an XMP packet anywhere in a file's bytes (a JPEG APP1 segment, a
 * WebP `XMP ` chunk), or null. Found by its property tags: no container parsing needed.
 */
export function readXmpProvenance(bytes: Uint8Array): string | null {
  const open = asciiBytes(`<${PROPERTY}>`);
  const start = indexOfBytes(bytes, open);
  if (start < 0) return null;
  const end = indexOfBytes(bytes, asciiBytes(`</${PROPERTY}>`), start);
  if (end < 0) return null;
  const text = decodeUtf8(bytes.subarray(start + open.length, end));
  return text === null ? null : unescapeXml(text);
}
