import { describe, expect, it } from "vitest";
import { isThumbnail, rowThumbnail, THUMBNAIL, zThumbnailUrl } from "../src/api/thumbnails.ts";

// Base64 of a PNG's, a JPEG's and a WebP's first bytes, and of two hostile texts.
const PNG = "iVBORw0KGgoAAAANAQID";
const JPEG = "/9j/4AAQSkZJRgAB";
const WEBP = "UklGRiQAAABXRUJQVlA4IA==";
const SVG = "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+";
const HTML = "PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==";

describe("workflow thumbnails", () => {
  it("keeps small PNG, WebP and JPEG data URLs whose bytes are what they claim", () => {
    expect(isThumbnail(`data:image/png;base64,${PNG}`)).toBe(true);
    expect(isThumbnail(`data:image/jpeg;base64,${JPEG}`)).toBe(true);
    expect(isThumbnail(`data:image/webp;base64,${WEBP}`)).toBe(true);
  });

  it("refuses other types, lying bytes, addresses, scripts and oversized ones", () => {
    expect(isThumbnail(`data:image/webp;base64,${PNG}`)).toBe(false);
    expect(isThumbnail(`data:image/png;base64,${JPEG}`)).toBe(false);
    expect(isThumbnail(`data:image/svg+xml;base64,${SVG}`)).toBe(false);
    expect(isThumbnail(`data:text/html;base64,${HTML}`)).toBe(false);
    expect(isThumbnail("https://evil.example/x.png")).toBe(false);
    expect(isThumbnail("javascript:alert(1)")).toBe(false);
    expect(isThumbnail(`data:image/png;base64,${PNG} `)).toBe(false);
    const big = `data:image/png;base64,${PNG}${"A".repeat(THUMBNAIL.maxChars)}`;
    expect(isThumbnail(big)).toBe(false);
    expect(zThumbnailUrl.safeParse("https://x.example/a.png").error?.issues[0]?.message).toBe(
      "A thumbnail must be a small PNG, WebP or JPEG data URL",
    );
  });

  it("takes the row's thumbnail from the request, else from valid data, else leaves it", () => {
    const png = `data:image/png;base64,${PNG}`;
    expect(rowThumbnail({ thumbnailUrl: null, data: { metadata: { thumbnail: png } } })).toBeNull();
    expect(rowThumbnail({ data: { metadata: { thumbnail: png } } })).toBe(png);
    expect(rowThumbnail({ data: { metadata: { thumbnail: "https://x/y.png" } } })).toBeUndefined();
    expect(rowThumbnail({ data: { metadata: {} } })).toBeUndefined();
    expect(rowThumbnail({ data: { metadata: { thumbnail: null } } })).toBeNull();
  });
});
