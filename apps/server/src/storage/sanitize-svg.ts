/**
 * SVG sanitising: DOMPurify on a jsdom window. jsdom takes seconds to load, so it is loaded
 * on the first SVG upload rather than at server start.
 */
import type { DOMPurify } from "dompurify";

let purifier: Promise<DOMPurify> | null = null;

/** The one DOMPurify instance, made on first use; a failed load is tried again next time. */
function loadPurifier(): Promise<DOMPurify> {
  purifier ??= Promise.all([import("dompurify"), import("jsdom")]).then(
    ([{ default: createDOMPurify }, { JSDOM }]) =>
      createDOMPurify(new JSDOM("").window as unknown as Window & typeof globalThis),
    (error: unknown) => {
      purifier = null;
      throw error;
    },
  );
  return purifier;
}

/** Removes scripts, event handlers and foreign content from an SVG. */
export async function sanitizeSvg(text: string): Promise<string> {
  // DOMPurify drops a document that opens with an XML declaration or a doctype (both are
  // common in SVG files): the bare <svg> element is what is kept.
  const bare = text
    .replace(/^\uFEFF?\s*<\?xml[^>]*\?>\s*/i, "")
    .replace(/^\s*<!DOCTYPE[^>]*>\s*/i, "");
  // Parsed and written as XML, so the result stays a valid SVG document.
  return (await loadPurifier()).sanitize(bare, {
    USE_PROFILES: { svg: true, svgFilters: true },
    PARSER_MEDIA_TYPE: "application/xhtml+xml",
    // The XML parser keeps attribute case; DOMPurify's allow-list spells these in lower case.
    ADD_ATTR: [
      "viewBox",
      "preserveAspectRatio",
      "gradientUnits",
      "gradientTransform",
      "patternUnits",
      "patternTransform",
      "clipPathUnits",
      "stdDeviation",
      "textLength",
    ],
  });
}
