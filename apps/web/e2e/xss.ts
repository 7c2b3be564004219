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
