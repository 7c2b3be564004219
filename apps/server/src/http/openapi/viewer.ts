import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The API reference page: Swagger UI (swagger-ui-dist, served from here, never a CDN) over
 * GET /api/openapi.json. No inline script: the page loads the bundle and `init.js`, both
 * same-origin, so it runs under `script-src 'self'`.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Atelier API reference</title>
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="docs"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

/** Starts Swagger UI on the document; no validator badge (it would call another site). */
const INIT_SCRIPT = `"use strict";
window.ui = window.SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  validatorUrl: null,
});
`;

/**
 * The page's policy: the app shell's (script-src 'self', no inline script, no eval), not
 * the API's load-nothing one, since this answer is a page. Swagger UI sets `style`
 * attributes and its CSS embeds `data:` images; "Try it out" calls this origin only.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export interface ViewerAsset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

const JS = "text/javascript; charset=utf-8";

/** The files under /api/docs/: Swagger UI's bundle, styles and icon, and our start-up script. */
export function loadViewerAssets(): Map<string, ViewerAsset> {
  const root = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const asset = (type: string, body: Buffer): ViewerAsset => ({
    type,
    body,
    gzipped: gzipSync(body),
  });
  // Without its source map comment: the map is not served.
  const css = readFileSync(join(root, "swagger-ui.css"), "utf8").replace(
    /\/\*# sourceMappingURL=.*?\*\/\s*$/,
    "",
  );
  return new Map([
    ["swagger-ui-bundle.js", asset(JS, readFileSync(join(root, "swagger-ui-bundle.js")))],
    ["swagger-ui.css", asset("text/css; charset=utf-8", Buffer.from(css))],
    ["init.js", asset(JS, Buffer.from(INIT_SCRIPT))],
    ["favicon-32x32.png", asset("image/png", readFileSync(join(root, "favicon-32x32.png")))],
  ]);
}
