import { type Provenance, readEmbeddedProvenance } from "@atelier/core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inspectUpload } from "../src/storage/inspect.ts";
import { embedProvenance } from "../src/storage/provenance/embed.ts";

const provenance: Provenance = {
  model: "flux-pro",
  provider: "fal",
  endpoint: "fal-ai/flux-pro/v1.1",
  parameters: { outputFormat: "jpeg", note: "</atelier:provenance> & 'quotes'" },
  seed: 7,
  prompt: 'a fox <in> the "snow" & ice — ünïcode',
  runId: null,
  workflowId: "w1",
  version: null,
  createdAt: "2026-11-25T00:00:00.000Z",
  cost: null,
};

const picture = (channels: 3 | 4) =>
  sharp({
    create: { width: 33, height: 17, channels, background: { r: 200, g: 40, b: 9, alpha: 0.5 } },
  });

/** The XMP packet sharp (libvips) reads from a file: an independent reader of ours. */
async function xmpOf(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { xmp: meta.xmp?.toString("utf8") ?? "", width: meta.width, height: meta.height };
}

describe("provenance embedded without re-encoding", () => {
  const formats: [string, string, () => Promise<Buffer>][] = [
    ["jpeg", "image/jpeg", () => picture(3).jpeg().toBuffer()],
    ["webp lossy", "image/webp", () => picture(3).webp().toBuffer()],
    [
      "webp lossless with alpha",
      "image/webp",
      () => picture(4).webp({ lossless: true }).toBuffer(),
    ],
    [
      "webp extended (with XMP already)",
      "image/webp",
      () => picture(4).webp().withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>').toBuffer(),
    ],
    [
      "jpeg with XMP already",
      "image/jpeg",
      () => picture(3).jpeg().withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>').toBuffer(),
    ],
    [
      "jpeg with EXIF (orientation)",
      "image/jpeg",
      () => picture(3).jpeg().withMetadata({ orientation: 6 }).toBuffer(),
    ],
  ];
  for (const [label, mimeType, make] of formats)
    it(`${label}: XMP that sharp reads back, the same pixels, and inspection passes`, async () => {
      const original = await make();
      const { body, sidecar } = embedProvenance(original, mimeType, provenance);
      expect(sidecar).toBeNull();
      const read = await xmpOf(body);
      expect(read).toMatchObject({ width: 33, height: 17 });
      expect(read.xmp).toContain('xmlns:atelier="urn:atelier:ns:provenance:1.0/"');
      expect(readEmbeddedProvenance(body)).toEqual(provenance);
      const [before, after] = await Promise.all(
        [original, body].map((bytes) => sharp(bytes).raw().toBuffer()),
      );
      expect(after?.equals(before as Buffer)).toBe(true);
      // Other metadata stays as it was (EXIF's orientation first of all).
      const was = await sharp(original).metadata();
      const is = await sharp(body).metadata();
      expect([is.orientation, is.exif?.length]).toEqual([was.orientation, was.exif?.length]);
      if (was.exif && mimeType === "image/jpeg")
        expect(body.indexOf("Exif\0\0")).toBeLessThan(body.indexOf("http://ns.adobe.com/xap/"));
      const extension = mimeType === "image/jpeg" ? "jpg" : "webp";
      await expect(inspectUpload(body, extension)).resolves.toMatchObject({ mimeType });
    });

  it("a JPEG whose packet outgrows its 64 KB segment keeps a sidecar instead", async () => {
    const jpeg = await picture(3).jpeg().toBuffer();
    const long = { ...provenance, prompt: "x".repeat(70_000) };
    const { body, sidecar } = embedProvenance(jpeg, "image/jpeg", long);
    expect(body).toBe(jpeg);
    expect(JSON.parse(String(sidecar))).toEqual(long);
  });

  it("formats without room for it (GIF, video) keep a sidecar; a broken PNG too", () => {
    for (const type of ["image/gif", "video/mp4", "model/gltf-binary", "image/png"]) {
      const { body, sidecar } = embedProvenance(Buffer.from("not really"), type, provenance);
      expect(body.toString()).toBe("not really");
      expect(JSON.parse(String(sidecar))).toEqual(provenance);
    }
  });
});
