import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SafeUrlContext, safeLinkUrl, safeMediaUrl } from "../src/index.ts";

const ORIGIN = "http://127.0.0.1:4301";
const embed = (kind: SafeUrlContext["kind"] = "any"): SafeUrlContext => ({
  origin: ORIGIN,
  kind,
  use: "embed",
});
const open = (kind: SafeUrlContext["kind"] = "any"): SafeUrlContext => ({
  origin: ORIGIN,
  kind,
  use: "open",
});

/** Everything a stored-XSS or navigation attack has written into a URL field. */
const HOSTILE = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\nscript:alert(1)",
  "java\tscript:alert(1)",
  "java\rscript:alert(1)",
  "\u0000javascript:alert(1)",
  "\u0001javascript:alert(1)",
  "javascript&colon;alert(1)",
  "javascript%3Aalert(1)",
  "%6Aavascript:alert(1)",
  "&#106;avascript:alert(1)",
  "vbscript:msgbox(1)",
  "VBScript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "DATA:TEXT/HTML,<script>alert(1)</script>",
  "data:,<script>alert(1)</script>",
  "data:;base64,PHNjcmlwdD4=",
  "data:application/xhtml+xml,<x/>",
  "data:image/png;text/html,<script>alert(1)</script>",
  "data:text/html;image/png,<script>alert(1)</script>",
  "data:image/png ;base64,AAAA",
  "data:image/png;base64,",
  "file:///etc/passwd",
  "ftp://example.com/a.png",
  "about:blank",
  "chrome://settings",
  "//evil.example/x.png",
  "///evil.example/x.png",
  "/\\evil.example/x.png",
  "\\\\evil.example\\x.png",
  "https:\\\\evil.example\\x.png",
  "https://user:pass@evil.example/x.png",
  "https://good.example@evil.example/x.png",
  "https://evil.example\\@good.example/x.png",
  "https:evil.example/x.png",
  "https:/evil.example/x.png",
  "https://",
  "https://exa mple.com/a.png",
  "https://example.com/a b.png",
  "https://example.com/a\u2028.png",
  "https://example.com:99999/a.png",
  "blob:https://evil.example/1c6a0a38-9d1e-4a5f-8d43-1a2b3c4d5e6f",
  "blob:null/1c6a0a38",
  "/api/media/../auth/sign-out",
  "/api/media/%2e%2e/auth/sign-out",
  "/api/media/file/..%2fauth",
  "/api/auth/sign-out",
  "api/media/file/a.png",
  "./api/media/file/a.png",
  "http://127.0.0.1:4301/api/workflows",
  "http://127.0.0.1:4301/api/media/./../workflows",
  "",
  "   ",
];

describe("safeMediaUrl: one allow-list for URLs from data", () => {
  it.each(HOSTILE)("refuses %j for every kind and use", (url) => {
    for (const kind of ["image", "video", "audio", "model", "any"] as const) {
      expect(safeMediaUrl(url, embed(kind))).toBeNull();
      expect(safeMediaUrl(url, open(kind))).toBeNull();
    }
    expect(safeLinkUrl(url, { origin: ORIGIN })).toBeNull();
  });

  it.each([
    "https://cdn.example.com/a/b/out.png?sig=1#x",
    "HTTPS://CDN.EXAMPLE.COM/out.png",
    "http://example.com",
    "https://fal.media/files/rabbit/x_y(1).png",
    "https://[2001:db8::1]:8443/a.png",
    "http://127.0.0.1:4301/api/media/file/u/1/a.png",
    "http://127.0.0.1:80/api/workflows",
    "/api/media/file/u/1/a.png",
    "/api/media/file/u/1/my%20clip.mp4?t=1",
    "blob:http://127.0.0.1:4301/1c6a0a38-9d1e-4a5f-8d43-1a2b3c4d5e6f",
  ])("passes %j, unchanged, for every kind and use", (url) => {
    for (const kind of ["image", "video", "audio", "model", "any"] as const) {
      expect(safeMediaUrl(url, embed(kind))).toBe(url);
      expect(safeMediaUrl(url, open(kind))).toBe(url);
    }
  });

  it("trims the whitespace a browser would drop around a URL", () => {
    expect(safeMediaUrl("  https://x.test/a.png\n", embed())).toBe("https://x.test/a.png");
  });

  it("takes data: URLs of the kind's media only, and SVG data only inside an image", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const svg = "data:image/svg+xml;charset=utf-8,<svg xmlns='http://www.w3.org/2000/svg'/>";
    const video = "data:video/mp4;base64,AAAA";
    const audio = "data:audio/wav;base64,AAAA";
    const model = "data:model/gltf-binary;base64,AAAA";
    expect(safeMediaUrl(png, embed("image"))).toBe(png);
    expect(safeMediaUrl(png, open("image"))).toBe(png);
    expect(safeMediaUrl(svg, embed("image"))).toBe(svg);
    expect(safeMediaUrl(svg, open("image"))).toBeNull();
    expect(safeMediaUrl(svg, open("any"))).toBeNull();
    expect(safeLinkUrl(svg, { origin: ORIGIN })).toBeNull();
    expect(safeMediaUrl(video, embed("video"))).toBe(video);
    expect(safeMediaUrl(video, embed("image"))).toBeNull();
    expect(safeMediaUrl(audio, open("audio"))).toBe(audio);
    expect(safeMediaUrl(model, embed("model"))).toBe(model);
    expect(safeMediaUrl(model, embed("any"))).toBe(model);
    expect(safeMediaUrl(png, embed("audio"))).toBeNull();
    expect(safeMediaUrl("data:image/png;base64,AA\nAA", embed("image"))).toBeNull();
  });

  it("is the stricter `open` use, for any media, when the context says nothing more", () => {
    expect(safeMediaUrl("data:image/svg+xml,<svg/>", { origin: ORIGIN })).toBeNull();
    expect(safeMediaUrl("data:video/webm;base64,AAAA", { origin: ORIGIN })).not.toBeNull();
  });

  it("reads relative paths and blobs only against a real origin", () => {
    expect(safeMediaUrl("/api/media/file/a.png", { origin: "null" })).toBeNull();
    expect(safeMediaUrl("blob:null/abc", { origin: "null" })).toBeNull();
    expect(safeMediaUrl("https://x.test/a.png", { origin: "null" })).toBe("https://x.test/a.png");
    expect(
      safeMediaUrl("https://127.0.0.1:4301/api/auth", { origin: ORIGIN }),
      "another scheme is another origin",
    ).toBe("https://127.0.0.1:4301/api/auth");
    expect(safeMediaUrl("http://LOCALHOST./api/x", { origin: "http://localhost" })).toBeNull();
  });

  it("asks the operator's host allow-list about remote hosts, never about our own", () => {
    const context = {
      ...embed(),
      allowHost: (host: string) => host === "cdn.example.com" || host.endsWith(".fal.media"),
    };
    expect(safeMediaUrl("https://cdn.example.com/a.png", context)).not.toBeNull();
    expect(safeMediaUrl("https://v3.fal.media/a.png", context)).not.toBeNull();
    expect(safeMediaUrl("https://evil.example/a.png", context)).toBeNull();
    expect(safeMediaUrl("/api/media/file/a.png", context)).not.toBeNull();
    expect(safeMediaUrl(`${ORIGIN}/api/media/file/a.png`, context)).not.toBeNull();
  });

  it("refuses what is not a string", () => {
    for (const value of [null, undefined, 42, {}, ["https://x.test/a.png"], { url: "x" }])
      expect(safeMediaUrl(value, embed())).toBeNull();
  });

  it("never passes a script, text or non-web URL, whatever the input", () => {
    // Hostile pieces glued in any order, with noise a browser strips or folds.
    const piece = fc.constantFrom(
      "javascript:",
      "JAVASCRIPT:",
      "vbscript:",
      "data:",
      "data:text/html,",
      "data:image/png,",
      "java",
      "script:",
      "\t",
      "\n",
      "\u0000",
      " ",
      "\\",
      "/",
      "//",
      "%3a",
      ":",
      "http",
      "https://x.test/",
      "/api/media/",
      "blob:",
      "..",
      "alert(1)",
    );
    const value = fc.oneof(
      fc.array(piece, { maxLength: 8 }).map((parts) => parts.join("")),
      fc.string({ unit: "binary", maxLength: 40 }),
    );
    const kind = fc.constantFrom("image", "video", "audio", "model", "any" as const);
    const use = fc.constantFrom("embed", "open" as const);
    fc.assert(
      fc.property(value, kind, use, (input, shownAs, usedFor) => {
        const url = safeMediaUrl(input, { origin: ORIGIN, kind: shownAs, use: usedFor });
        if (url === null) return;
        // What a browser would read: controls and whitespace dropped, lower case.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: a browser drops these.
        const read = url.replace(/[\u0000-\u0020]/g, "").toLowerCase();
        expect(read).not.toMatch(/^(javascript|vbscript|file|about):/);
        expect(read).not.toMatch(/^data:(?!(image|video|audio|model)\/)/);
        expect(read).not.toMatch(/^\/\//);
        expect(read).toMatch(/^(https?:\/\/[^/\\@]|\/api\/media\/|blob:http|data:)/);
        if (usedFor === "open") expect(read).not.toMatch(/^data:image\/svg/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("safeLinkUrl: links in notes and markdown", () => {
  it("opens web pages, our media and plain mail addresses", () => {
    const context = { origin: ORIGIN };
    expect(safeLinkUrl("https://example.com/guide", context)).toBe("https://example.com/guide");
    expect(safeLinkUrl("mailto:team@example.com", context)).toBe("mailto:team@example.com");
    expect(safeLinkUrl("mailto:team@example.com?bcc=all@example.com", context)).toBeNull();
    expect(safeLinkUrl("#top", context)).toBeNull();
    expect(safeLinkUrl("/settings", context)).toBeNull();
  });
});
