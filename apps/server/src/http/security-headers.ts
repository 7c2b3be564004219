import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

/**
 * Browser features the app never uses, switched off for it and for anything it embeds
 * (helmet has no Permissions-Policy: it is the one header written here by hand). Video
 * and audio keep fullscreen, picture-in-picture and autoplay for this origin.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=(self)",
  "camera=()",
  "display-capture=()",
  "fullscreen=(self)",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "picture-in-picture=(self)",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

/** One year, without includeSubDomains: the operator's other hosts are not ours to pin. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * The app shell's Content-Security-Policy (index.html, its scripts, styles and worker).
 * - script-src 'self': the production build has no inline script (Vite puts its
 *   modulepreload polyfill in the entry chunk), no eval (zod's JIT probe is caught and
 *   falls back).
 * - style-src 'unsafe-inline': React Flow positions every node, edge and the viewport with
 *   `style` attributes, and sonner injects its stylesheet as a `<style>` element. Styles
 *   cannot run script; markup that could abuse CSS never reaches the page (React escapes,
 *   markdown renders without raw HTML).
 * - img-src / media-src: our files (also under PUBLIC_URL when the page was opened at
 *   another spelling of this host), `data:` and `blob:` previews, and remote http(s)
 *   media: SPEC §5 lets a media input be any http(s) URL.
 * - connect-src: only this server (API, event streams, our media) plus `data:`/`blob:`
 *   (three.js reads embedded glTF buffers with fetch). The browser never talks to a
 *   provider: uploads and results go through this server, so no provider host is listed.
 *   Provider media is copied into our storage at once, so a remote model (a pasted URL)
 *   is the only thing this keeps from loading (docs/security.md, known limits).
 */
function shellDirectives(publicOrigin: string, https: boolean): Record<string, string[]> {
  const ours = ["'self'", publicOrigin];
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": [...ours, "data:", "blob:", "http:", "https:"],
    "media-src": [...ours, "data:", "blob:", "http:", "https:"],
    "connect-src": [...ours, "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'self'"],
    ...(https ? { "upgrade-insecure-requests": [] } : {}),
  };
}

/** API answers are data, never documents: nothing loads, nothing frames them. */
const API_DIRECTIVES = {
  "default-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
  "frame-ancestors": ["'none'"],
};

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** The two helmet configurations: the app shell (and its assets) and the API. */
export function securityHeaderOptions(publicUrl: string): {
  shell: HelmetOptions;
  api: HelmetOptions;
} {
  const { origin, protocol } = new URL(publicUrl);
  const https = protocol === "https:";
  const common = {
    strictTransportSecurity: https
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }
      : (false as const),
    referrerPolicy: { policy: "no-referrer" as const },
    crossOriginOpenerPolicy: { policy: "same-origin" as const },
    crossOriginResourcePolicy: { policy: "same-origin" as const },
  };
  return {
    shell: {
      ...common,
      contentSecurityPolicy: { useDefaults: false, directives: shellDirectives(origin, https) },
      xFrameOptions: { action: "sameorigin" as const },
    },
    api: {
      ...common,
      contentSecurityPolicy: { useDefaults: false, directives: API_DIRECTIVES },
      xFrameOptions: { action: "deny" as const },
    },
  };
}

/**
 * Security headers on every answer, by helmet. @fastify/helmet rebuilds helmet's
 * middleware on every request (about 5 µs, plus an async hook), which the status poll
 * (bench Q1) would pay thousands of times a second; here each configuration is built once
 * and applied by one synchronous hook. The headers are set on the raw response, so a
 * route's own value wins (media files keep their sandboxing CSP, CORP and cache time) and
 * hijacked event streams carry them too.
 *
 * API answers are private unless a route says otherwise: `Cache-Control: no-store`.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const options = securityHeaderOptions(publicUrl);
  const shell = helmet(options.shell) as Middleware;
  const api = helmet(options.api) as Middleware;
  const noop = () => {};
  app.addHook("onRequest", (request, reply, done) => {
    const response = reply.raw;
    if (request.url.startsWith("/api/")) {
      api(request.raw, response, noop);
      response.setHeader("cache-control", "no-store");
    } else {
      shell(request.raw, response, noop);
      response.setHeader("permissions-policy", PERMISSIONS_POLICY);
    }
    done();
  });
}
