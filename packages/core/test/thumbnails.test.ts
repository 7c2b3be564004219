import { describe, expect, it } from "vitest";
import { isThumbnail, rowThumbnail, THUMBNAIL, zThumbnailUrl } from "../src/api/thumbnails.ts";

const b64 = (bytes: number[] | string) =>
  Buffer.from(typeof bytes === "string" ? bytes : Uint8Array.from(bytes)).toString("base64");
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const WEBP = "RIFF\x24\x00\x00\x00WEBPVP8 ";

describe("workflow thumbnails", () => {
  it("keeps small PNG, WebP and JPEG data URLs whose bytes are what they claim", () => {
    expect(isThumbnail(`data:image/png;base64,${b64(PNG)}`)).toBe(true);
    expect(isThumbnail(`data:image/jpeg;base64,${b64(JPEG)}`)).toBe(true);
    expect(isThumbnail(`data:image/webp;base64,${b64(WEBP)}`)).toBe(true);
  });

  it("refuses other types, lying bytes, addresses, scripts and oversized ones", () => {
    expect(isThumbnail(`data:image/webp;base64,${b64(PNG)}`)).toBe(false);
    expect(isThumbnail(`data:image/png;base64,${b64(JPEG)}`)).toBe(false);
    expect(isThumbnail(`data:image/svg+xml;base64,${b64("<svg onload=alert(1)>")}`)).toBe(false);
    expect(isThumbnail(`data:text/html;base64,${b64("<script>alert(1)</script>")}`)).toBe(false);
    expect(isThumbnail("https://evil.example/x.png")).toBe(false);
    expect(isThumbnail("javascript:alert(1)")).toBe(false);
    expect(isThumbnail(`data:image/png;base64,${b64(PNG)} `)).toBe(false);
    const big = `data:image/png;base64,${b64(PNG)}${"A".repeat(THUMBNAIL.maxChars)}`;
    expect(isThumbnail(big)).toBe(false);
    expect(zThumbnailUrl.safeParse("https://x.example/a.png").error?.issues[0]?.message).toBe(
      "A thumbnail must be a small PNG, WebP or JPEG data URL",
    );
  });

  it("takes the row's thumbnail from the request, else from valid data, else leaves it", () => {
    const png = `data:image/png;base64,${b64(PNG)}`;
    expect(rowThumbnail({ thumbnailUrl: null, data: { metadata: { thumbnail: png } } })).toBeNull();
    expect(rowThumbnail({ data: { metadata: { thumbnail: png } } })).toBe(png);
    expect(rowThumbnail({ data: { metadata: { thumbnail: "https://x/y.png" } } })).toBeUndefined();
    expect(rowThumbnail({ data: { metadata: {} } })).toBeUndefined();
    expect(rowThumbnail({ data: { metadata: { thumbnail: null } } })).toBeNull();
  });
});
