import { describe, expect, it } from "vitest";
import {
  formatMediaRef,
  inBatches,
  isLargeWorkflow,
  listOutputMedia,
  MEDIA_OUTPUT_KEYS,
  mediaForm,
  parseMediaRef,
  saveStrategy,
  utf8ByteLength,
  workflowTooLargeMessage,
} from "../src/index.ts";

const MB = 1024 * 1024;

describe("save size classes (SPEC §9)", () => {
  it.each([
    [1000, "single"],
    [2 * MB, "single"],
    [2 * MB + 1, "batched"],
    [5 * MB, "batched"],
    [5 * MB + 1, "chunked"],
    [10 * MB, "chunked"],
    [10 * MB + 1, "too-large"],
  ] as const)("%i bytes → %s", (bytes, strategy) => {
    expect(saveStrategy(bytes)).toBe(strategy);
  });

  it("refuses over 10 MB with SPEC's message", () => {
    expect(workflowTooLargeMessage(10 * MB)).toBeNull();
    expect(workflowTooLargeMessage(12.5 * MB)).toBe(
      "Workflow data is still 12.50 MB after processing. This is too large for the database. Please try clearing some outputs manually.",
    );
  });

  it("batches nodes by 20 and flags workflows over 500 nodes and edges", () => {
    expect(
      inBatches(Array.from({ length: 45 }, (_, index) => index)).map((batch) => batch.length),
    ).toEqual([20, 20, 5]);
    expect(isLargeWorkflow(300, 200)).toBe(false);
    expect(isLargeWorkflow(300, 201)).toBe(true);
  });

  it("counts UTF-8 bytes", () => {
    expect(utf8ByteLength("abc")).toBe(3);
    expect(utf8ByteLength("é")).toBe(2);
    expect(utf8ByteLength("€")).toBe(3);
    expect(utf8ByteLength("😀")).toBe(4);
  });
});

describe("media refs", () => {
  it("splits and joins 'id|path|nodeId|outputKey|type'", () => {
    const ref = {
      id: "m1",
      path: "u1/w1/1700-abc.png",
      nodeId: "n1",
      outputKey: "imageUrl",
      type: "image",
    };
    expect(formatMediaRef(ref)).toBe("m1|u1/w1/1700-abc.png|n1|imageUrl|image");
    expect(parseMediaRef("m1|u1/w1/1700-abc.png|n1|imageUrl|image")).toEqual(ref);
  });

  it("joins a ref given as a list of parts", () => {
    expect(formatMediaRef(["m1", "u1/w1/f.png", "n1", "imageUrl", "image"])).toBe(
      "m1|u1/w1/f.png|n1|imageUrl|image",
    );
    expect(() => formatMediaRef(["m1", "path"])).toThrow("A media ref has 5 parts, got 2");
  });

  it("rejects malformed refs", () => {
    expect(parseMediaRef("a|b|c")).toBeNull();
    expect(parseMediaRef("a|b|c|d|e|f")).toBeNull();
    expect(parseMediaRef("a||c|d|e")).toBeNull();
    expect(() =>
      formatMediaRef({ id: "a|b", path: "p", nodeId: "n", outputKey: "o", type: "t" }),
    ).toThrow();
  });
});

describe("media in outputs", () => {
  it("knows SPEC's media output keys", () => {
    expect(MEDIA_OUTPUT_KEYS).toHaveLength(20);
    expect(MEDIA_OUTPUT_KEYS).toContain("isolatedAudio");
    expect(MEDIA_OUTPUT_KEYS).toContain("generatedVideo");
  });

  it("lists media URLs, including lists and {url} objects", () => {
    expect(
      listOutputMedia({
        images: ["https://a/1.png", "https://a/2.png"],
        isolatedAudio: { url: "https://a/v.wav" },
        text: "not media",
      }),
    ).toEqual([
      { key: "images", url: "https://a/1.png" },
      { key: "images", url: "https://a/2.png" },
      { key: "isolatedAudio", url: "https://a/v.wav" },
    ]);
  });

  it("tells embedded, storage and remote media apart", () => {
    expect(mediaForm("data:image/png;base64,AA")).toBe("embedded");
    expect(mediaForm("/api/media/u/w/f.png")).toBe("storage");
    expect(mediaForm("https://store.example/f.png", "https://store.example/")).toBe("storage");
    expect(mediaForm("https://cdn.fal.media/x.png")).toBe("remote");
  });
});
