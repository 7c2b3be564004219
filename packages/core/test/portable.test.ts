import { describe, expect, it } from "vitest";
import {
  checkPortableListing,
  isSafeEntryName,
  LIMITS,
  listMediaReferences,
  PORTABLE_MESSAGES,
  planPortableExport,
  readPortableManifest,
  relocatePortableMedia,
  type SavedWorkflow,
  storageUrlOf,
} from "../src/index.ts";

const ORIGIN = "http://a.example:4000";
const OTHER = "http://b.example:5000";
/** A PNG data URL over the 5 KB upload threshold (the bytes need not decode). */
const BIG_PNG = `data:image/png;base64,${"A".repeat(8000)}`;
const SMALL_PNG = "data:image/png;base64,iVBORw0KGgo=";

function workflow(): SavedWorkflow {
  return {
    version: "1.0.0",
    timestamp: 1,
    nodes: [
      {
        id: "up",
        type: "utility",
        position: { x: 0, y: 0 },
        data: {
          label: "cat.png",
          outputs: { image: `${ORIGIN}/api/media/file/u1/wf/111-cat.png` },
          outputValues: { output: { value: `${ORIGIN}/api/media/file/u1/wf/111-cat.png` } },
        },
        selected: false,
        dragging: false,
      },
      {
        id: "gen",
        type: "flux-pro",
        position: { x: 400, y: 0 },
        data: {
          label: "Generator",
          inputValues: { prompt: { value: `see ${ORIGIN}/api/media/file/u1/wf/111-cat.png` } },
          outputs: {
            imageUrl: "/api/media/file/u1/wf/222-result.png",
            images: [{ url: BIG_PNG }, SMALL_PNG, "https://cdn.example.com/remote.png"],
          },
          history: [{ imageUrl: "/api/media/file/u1/wf/222-result.png" }],
        },
        selected: false,
        dragging: false,
      },
    ],
    edges: [],
    metadata: {
      name: "Portable",
      mediaRefs: ["m1|u1/wf/111-cat.png|up|image|image", "not a ref"],
    },
    mediaManifest: [
      {
        id: "m2",
        nodeId: "gen",
        outputKey: "imageUrl",
        filePath: "u1/wf/222-result.png",
        fileSize: 10,
        mimeType: "image/png",
      },
    ],
  };
}

describe("the media reference walker", () => {
  it("finds storage URLs (absolute and relative), refs, manifest entries and data URLs; not text", () => {
    const found = listMediaReferences(workflow(), { origin: ORIGIN });
    expect(found).toEqual([
      { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/111-cat.png` },
      { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/111-cat.png` },
      { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/222-result.png` },
      { type: "embedded", dataUrl: BIG_PNG },
      { type: "embedded", dataUrl: SMALL_PNG },
      { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/222-result.png` },
      { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/111-cat.png` },
      { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/222-result.png` },
    ]);
  });

  it("tells stored media from other URLs", () => {
    expect(storageUrlOf("/api/media/file/a/b.png", `${ORIGIN}/`)).toBe(
      `${ORIGIN}/api/media/file/a/b.png`,
    );
    expect(storageUrlOf(`${OTHER}/api/media/file/a.png`, ORIGIN)).toBe(
      `${OTHER}/api/media/file/a.png`,
    );
    expect(storageUrlOf("https://cdn.example.com/a.png", ORIGIN)).toBeNull();
    expect(storageUrlOf("api/media/file/a.png", ORIGIN)).toBeNull();
    expect(storageUrlOf("javascript:/api/media/file/", ORIGIN)).toBeNull();
  });
});

describe("planPortableExport", () => {
  it("bundles each stored file and large embedded media once, and points every reference at it", () => {
    const before = JSON.stringify(workflow());
    const { workflow: out, files } = planPortableExport(workflow(), { origin: ORIGIN });
    expect(JSON.stringify(workflow())).toBe(before);
    expect(files).toEqual([
      {
        file: "media/001-111-cat.png",
        source: { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/111-cat.png` },
      },
      {
        file: "media/002-222-result.png",
        source: { type: "storage", url: `${ORIGIN}/api/media/file/u1/wf/222-result.png` },
      },
      {
        file: "media/003-embedded.png",
        source: { type: "embedded", dataUrl: BIG_PNG, mimeType: "image/png" },
      },
    ]);
    const [up, gen] = out.nodes;
    expect(up?.data.outputs).toEqual({ image: "media/001-111-cat.png" });
    expect(up?.data.outputValues).toEqual({ output: { value: "media/001-111-cat.png" } });
    expect(gen?.data.outputs).toEqual({
      imageUrl: "media/002-222-result.png",
      images: [{ url: "media/003-embedded.png" }, SMALL_PNG, "https://cdn.example.com/remote.png"],
    });
    expect(gen?.data.history).toEqual([{ imageUrl: "media/002-222-result.png" }]);
    // Text that mentions a URL is not a reference.
    expect(gen?.data.inputValues).toEqual(workflow().nodes[1]?.data.inputValues);
    expect(out.metadata.mediaRefs).toEqual([
      "m1|media/001-111-cat.png|up|image|image",
      "not a ref",
    ]);
    expect(out.mediaManifest?.[0]).toMatchObject({
      id: "m2",
      filePath: "media/002-222-result.png",
    });
    // Nothing of this server is left in the workflow but the prompt's text.
    expect(JSON.stringify(out).match(/\/api\/media\/file\//g)).toHaveLength(1);
  });

  it("leaves stored files no upload takes (not media) as links, and says which", () => {
    const saved = workflow();
    (saved.nodes[0] as { data: Record<string, unknown> }).data = {
      outputs: { image: "/api/media/file/u1/wf/4-a.png" },
      sidecar: "/api/media/file/u1/wf/4-a.png.json",
    };
    const { workflow: out, files, linked } = planPortableExport(saved, { origin: ORIGIN });
    expect(out.nodes[0]?.data).toEqual({
      outputs: { image: "media/001-4-a.png" },
      sidecar: "/api/media/file/u1/wf/4-a.png.json",
    });
    expect(files[0]?.file).toBe("media/001-4-a.png");
    expect(linked).toEqual([`${ORIGIN}/api/media/file/u1/wf/4-a.png.json`]);
  });

  it("leaves the URLs it is told to keep as links", () => {
    const keep = new Set([`${ORIGIN}/api/media/file/u1/wf/222-result.png`]);
    const { workflow: out, files } = planPortableExport(workflow(), { origin: ORIGIN, keep });
    expect(files.map((file) => file.file)).toEqual([
      "media/001-111-cat.png",
      "media/002-embedded.png",
    ]);
    expect(out.nodes[1]?.data.outputs?.imageUrl).toBe("/api/media/file/u1/wf/222-result.png");
    expect(out.mediaManifest?.[0]?.filePath).toBe("u1/wf/222-result.png");
  });

  it("names files from their URL only: no folders, no odd characters", () => {
    const saved = workflow();
    (saved.nodes[0] as { data: Record<string, unknown> }).data = {
      outputs: { image: `${OTHER}/api/media/file/x/%2E%2E%2F..%2Fevil%3Cb%3E.png` },
    };
    const { files } = planPortableExport(saved, { origin: ORIGIN });
    expect(files[0]?.file).toBe("media/001-evil-b-.png");
  });
});

describe("relocatePortableMedia", () => {
  it("round-trips: every reference to a file of the zip becomes the new server's file", () => {
    const { workflow: bundled, files } = planPortableExport(workflow(), { origin: ORIGIN });
    const stored = new Map(
      files.map((file, index) => [
        file.file,
        {
          url: `${OTHER}/api/media/file/anon/temporary/${index}.png`,
          path: `anon/temporary/${index}.png`,
          id: `new-${index}`,
        },
      ]),
    );
    const out = relocatePortableMedia(bundled, stored, OTHER);
    const [up, gen] = out.nodes;
    expect(up?.data.outputs).toEqual({ image: `${OTHER}/api/media/file/anon/temporary/0.png` });
    expect(gen?.data.outputs).toEqual({
      imageUrl: `${OTHER}/api/media/file/anon/temporary/1.png`,
      images: [
        { url: `${OTHER}/api/media/file/anon/temporary/2.png` },
        SMALL_PNG,
        "https://cdn.example.com/remote.png",
      ],
    });
    expect(out.metadata.mediaRefs).toEqual([
      "new-0|anon/temporary/0.png|up|image|image",
      "not a ref",
    ]);
    expect(out.mediaManifest?.[0]).toMatchObject({
      id: "new-1",
      filePath: "anon/temporary/1.png",
      nodeId: "gen",
    });
    expect(JSON.stringify(out).split(ORIGIN)).toHaveLength(2);
  });

  it("leaves strings that are not a file of the zip alone", () => {
    const saved = workflow();
    (saved.nodes[0] as { data: Record<string, unknown> }).data = {
      label: "media/999-absent.png",
      outputs: { image: "media/001-a.png" },
    };
    const out = relocatePortableMedia(
      saved,
      new Map([
        ["media/001-a.png", { url: `${OTHER}/api/media/file/n.png`, path: "n.png", id: "n" }],
      ]),
      OTHER,
    );
    expect(out.nodes[0]?.data).toEqual({
      label: "media/999-absent.png",
      outputs: { image: `${OTHER}/api/media/file/n.png` },
    });
  });
});

describe("zip entry names (zip-slip)", () => {
  it.each(["workflow.json", "media/001-cat.png", "export/atelier-export.json", "media/"])(
    "accepts %s",
    (name) => expect(isSafeEntryName(name)).toBe(true),
  );

  it.each([
    "",
    "/etc/passwd",
    "../evil.png",
    "media/../../evil.png",
    "media/./a.png",
    "media//a.png",
    "C:/evil.png",
    "media\\..\\evil.png",
    "media/a\u0000.png",
    "x".repeat(256),
  ])("refuses %j", (name) => expect(isSafeEntryName(name)).toBe(false));
});

describe("checking a zip before unpacking it", () => {
  const base = [
    { name: "atelier-export.json", originalSize: 200 },
    { name: "workflow.json", originalSize: 2000 },
    { name: "media/001-cat.png", originalSize: 5000 },
  ];
  const manifest = (media: unknown[]) =>
    JSON.stringify({ format: "atelier.portable-workflow", version: 1, media });

  it("answers the layout of a good listing, also inside one folder", () => {
    expect(checkPortableListing(base)).toEqual({ root: "" });
    const nested = base.map((entry) => ({ ...entry, name: `My export/${entry.name}` }));
    expect(checkPortableListing([...nested, { name: "My export/", originalSize: 0 }])).toEqual({
      root: "My export/",
    });
  });

  it.each([
    [[...base, { name: "../../.bashrc", originalSize: 1 }], PORTABLE_MESSAGES.unsafeName],
    [base.slice(1), PORTABLE_MESSAGES.notExport],
    [[base[0], base[2]], PORTABLE_MESSAGES.missingFile("workflow.json")],
    [
      [base[0], { name: "workflow.json", originalSize: LIMITS.chunking.maxWorkflowBytes + 1 }],
      "The workflow in this .zip is 10.00 MB, over the 10.00 MB workflow limit. Nothing was imported.",
    ],
    [
      [...base, { name: "media/big.mp4", originalSize: LIMITS.storage.cloudQuotaBytes }],
      "This .zip unpacks to 500.01 MB, over the 500.00 MB storage limit. Nothing was imported.",
    ],
    [
      Array.from({ length: 5001 }, (_, index) => ({ name: `f${index}`, originalSize: 0 })),
      PORTABLE_MESSAGES.tooManyEntries,
    ],
  ])("refuses a bad listing with its message (%#)", (entries, message) => {
    expect(() => checkPortableListing(entries as never)).toThrow(message);
  });

  it("reads a manifest whose files are all there", () => {
    const text = manifest([{ file: "media/001-cat.png", mimeType: "image/png", bytes: 5000 }]);
    expect(readPortableManifest(text, base, { root: "" }).media).toHaveLength(1);
  });

  it.each([
    ["{", PORTABLE_MESSAGES.badManifest],
    [JSON.stringify({ format: "other", version: 1, media: [] }), PORTABLE_MESSAGES.badManifest],
    [
      manifest([{ file: "media/../x.png", mimeType: "image/png", bytes: 1 }]),
      PORTABLE_MESSAGES.unsafeName,
    ],
    [
      manifest([{ file: "workflow.json", mimeType: "image/png", bytes: 1 }]),
      PORTABLE_MESSAGES.unsafeName,
    ],
    [
      manifest([{ file: "media/002-gone.png", mimeType: "image/png", bytes: 1 }]),
      "This .zip lists media/002-gone.png but does not hold it. Nothing was imported.",
    ],
  ])("refuses a bad manifest (%#)", (text, message) => {
    expect(() => readPortableManifest(text, base, { root: "" })).toThrow(message);
  });

  it("refuses a media file over the upload limit", () => {
    const entries = [
      ...base,
      { name: "media/002-huge.mp4", originalSize: LIMITS.upload.maxFileBytes + 1 },
    ];
    const text = manifest([{ file: "media/002-huge.mp4", mimeType: "video/mp4", bytes: 1 }]);
    expect(() => readPortableManifest(text, entries, { root: "" })).toThrow(
      "media/002-huge.mp4 in this .zip is over the 50.00 MB upload limit. Nothing was imported.",
    );
  });
});
