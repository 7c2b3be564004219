import type { Page } from "@playwright/test";

/** Each payload would bump the canary if any of it ran as script. */
export const XSS_PAYLOADS = [
  "<script>window.__xss++</script>",
  '<img src="x" onerror="window.__xss++">',
  '<svg onload="window.__xss++"><circle r="4"/></svg>',
  '<a href="javascript:window.__xss++">html link</a>',
  "[markdown link](javascript:window.__xss++)",
  '<iframe srcdoc="<script>parent.__xss++</script>"></iframe>',
  "[data link](data:text/html,<script>window.__xss++</script>)",
];
export const XSS_CORPUS = XSS_PAYLOADS.join("\n\n");

/** An SVG that would bump the canary in every way an SVG can run script. */
export const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="window.__xss++"><script>window.__xss++</script><a xlink:href="javascript:window.__xss++"><rect width="40" height="40" fill="#e11d48" onclick="window.__xss++"/></a><foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;parent.__xss++&lt;/script&gt;"></iframe></foreignObject></svg>`;

/** The canary: anything that runs bumps it, alert included — on every page of the test. */
export async function installCanary(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { __xss: number }).__xss = 0;
    window.alert = () => {
      (window as unknown as { __xss: number }).__xss++;
    };
  });
}

export const canary = (page: Page) =>
  page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0);

/**
 * Addresses a stored-XSS attack writes into media fields: each runs script, opens a text
 * document or leaves this server if it reaches an attribute, a fetch or a navigation.
 */
export const HOSTILE_URLS = [
  "javascript:window.__xss++",
  "JaVaScRiPt:window.__xss++//x.png",
  "java\nscript:window.__xss++",
  " javascript:window.__xss++//x.glb",
  "vbscript:msgbox(1)",
  "data:text/html,<script>parent.__xss++</script>",
  "//evil.example/x.png",
];
/** SVG data: inert inside <img>, script when opened; it may never be a link or download. */
export const SVG_DATA =
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='window.__xss++'/>";
/** A 1×1 PNG, the kind of embedded image SPEC's workflows carry: it must still show. */
export const SAFE_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
/** Markdown links and images with every hostile address. */
export const MARKDOWN_URLS = HOSTILE_URLS.map(
  (url, index) => `[link ${index}](${url.trim()}) ![image ${index}](${url.trim()})`,
).join("\n\n");

/**
 * Every attribute in the page that carries a script, a text document or another site's
 * address (whitespace and controls dropped, as a browser reads a URL), or an event handler.
 * Text-only attributes (names, alt text, a field's typed value) are text, not addresses;
 * `url(#id)` points inside the page (React Flow's background pattern).
 */
export function unsafeAttributes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const TEXT = new Set(["title", "alt", "placeholder", "aria-label", "aria-valuetext"]);
    const found: string[] = [];
    for (const element of document.querySelectorAll("*")) {
      const field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
      for (const { name, value } of element.attributes) {
        const at = `<${element.tagName.toLowerCase()} ${name}="${value.slice(0, 60)}">`;
        if (name.startsWith("on")) found.push(at);
        if (TEXT.has(name) || name.startsWith("data-") || (field && name === "value")) continue;
        // biome-ignore lint/suspicious/noControlCharactersInRegex: a browser drops these.
        const read = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
        if (
          /^(javascript|vbscript|data:text)/.test(read) ||
          /url\((?!['"]?#)|javascript:/.test(read)
        )
          found.push(at);
        else if (read.includes("evil.example")) found.push(at);
        else if (name !== "src" && read.startsWith("data:image/svg")) found.push(at);
      }
    }
    return found;
  });
}
