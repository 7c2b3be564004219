import { describe, expect, it } from "vitest";
import {
  MEDIA_OUTPUT_KEYS,
  MEDIA_OUTPUT_KIND,
  mediaOutputKeys,
  PLAIN_MEDIA_OUTPUT_KEY,
} from "../src/index.ts";

describe("media output keys (SPEC §3)", () => {
  it("lists every key of the kind table once, in SPEC order", () => {
    expect(new Set(MEDIA_OUTPUT_KEYS).size).toBe(MEDIA_OUTPUT_KEYS.length);
    expect([...MEDIA_OUTPUT_KEYS].sort()).toEqual(Object.keys(MEDIA_OUTPUT_KIND).sort());
  });

  it("reads each kind's keys with the plain key first", () => {
    expect(mediaOutputKeys("image")).toEqual(["imageUrl", "processedImage", "image", "images"]);
    expect(mediaOutputKeys("object")).toEqual(["glbUrl", "modelUrl", "glbPbrUrl"]);
    expect(mediaOutputKeys("audio")).toEqual(["audioUrl", "audio", "isolatedAudio"]);
    expect(mediaOutputKeys("still")).toEqual(["snapshot", "meshPreview"]);
    for (const [kind, key] of Object.entries(PLAIN_MEDIA_OUTPUT_KEY)) {
      expect(mediaOutputKeys(kind as keyof typeof PLAIN_MEDIA_OUTPUT_KEY)[0]).toBe(key);
    }
  });
});
