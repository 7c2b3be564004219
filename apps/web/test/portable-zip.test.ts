import { PORTABLE_MESSAGES, type SavedWorkflow, serializeWorkflow } from "@atelier/core";
import { strToU8, unzipSync, zipSync } from "fflate";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { buildPortableZip } from "../src/features/persistence/portable-export.ts";
import {
  importPortableZip,
  type MediaUploader,
  unpackPortableZip,
} from "../src/features/persistence/portable-import.ts";
import { listZip, readZipEntry } from "../src/features/persistence/portable-zip.ts";
import { ApiError } from "../src/services/api.ts";
import { notify } from "../src/ui/notify.ts";

vi.mock("../src/ui/notify.ts", () => ({
  notify: { error: vi.fn(), info: vi.fn(), warning: vi.fn(), action: vi.fn() },
}));

beforeEach(() => vi.mocked(notify.error).mockClear());

const A = "http://a.example:4000";
const B = "http://b.example:5000";
const CAT = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
const RESULT = new Uint8Array([137, 80, 78, 71, 9, 9]);
const EMBEDDED = new Uint8Array(6000).map((_, index) => index % 251);
const EMBEDDED_URL = `data:image/png;base64,${btoa(String.fromCharCode(...EMBEDDED))}`;

function workflow(): SavedWorkflow {
  return {
    version: "1.0.0",
    timestamp: 1,
    nodes: [
      {
        id: "up",
        type: "utility",
        position: { x: 0, y: 0 },
        data: { label: "cat.png", outputs: { image: `${A}/api/media/file/u1/wf/1-cat.png` } },
        selected: false,
        dragging: false,
      },
      {
        id: "gen",
        type: "flux-pro",
        position: { x: 400, y: 0 },
        data: {
          outputs: {
            imageUrl: "/api/media/file/u1/wf/2-result.png",
            images: [EMBEDDED_URL, "/api/media/file/u1/wf/3-gone.png"],
          },
        },
        selected: false,
        dragging: false,
      },
    ],
    edges: [],
    metadata: { name: "Portable", mediaRefs: ["m1|u1/wf/1-cat.png|up|image|image"] },
  };
}

const files: Record<string, { bytes: Uint8Array; mimeType: string }> = {
  [`${A}/api/media/file/u1/wf/1-cat.png`]: { bytes: CAT, mimeType: "image/png" },
  [`${A}/api/media/file/u1/wf/2-result.png`]: { bytes: RESULT, mimeType: "image/png" },
};

const exportDeps = (steps: (string | null)[] = []) => ({
  origin: A,
  readMedia: async (url: string) => files[url] ?? null,
  step: (message: string | null) => void steps.push(message),
});

/** An uploader that stores on server B and remembers what it was sent. */
function serverB() {
  const sent: { name: string; type: string; bytes: number[] }[] = [];
  const upload = vi.fn<MediaUploader>(async (file, name) => {
    sent.push({ name, type: file.type, bytes: [...new Uint8Array(await file.arrayBuffer())] });
    const path = `anon/temporary/${sent.length}-${name}`;
    return { url: `${B}/api/media/file/${path}`, path, id: `id-${sent.length}` };
  });
  return { sent, upload };
}

describe("the portable .zip", () => {
  it("packs the workflow, its manifest and each media file; reads them back", async () => {
    const steps: (string | null)[] = [];
    const { zip, linksKept } = await buildPortableZip(workflow(), exportDeps(steps));
    expect(linksKept).toBe(1);
    expect(steps).toEqual([
      "Exporting media 0 of 4…",
      "Exporting media 1 of 4…",
      "Exporting media 2 of 4…",
      "Exporting media 3 of 4…",
      "Exporting media 4 of 4…",
      "Packing the .zip…",
    ]);
    const listed = listZip(zip).map((entry) => entry.name);
    expect(listed).toEqual([
      "atelier-export.json",
      "workflow.json",
      "media/001-1-cat.png",
      "media/002-2-result.png",
      "media/003-embedded.png",
    ]);
    expect([...readZipEntry(zip, "media/001-1-cat.png")]).toEqual([...CAT]);
    expect([...readZipEntry(zip, "media/003-embedded.png")]).toEqual([...EMBEDDED]);
    const unpacked = unzipSync(zip);
    const manifest = JSON.parse(new TextDecoder().decode(unpacked["atelier-export.json"]));
    expect(manifest).toMatchObject({
      format: "atelier.portable-workflow",
      version: 1,
      media: [
        { file: "media/001-1-cat.png", mimeType: "image/png", bytes: CAT.length },
        { file: "media/002-2-result.png", mimeType: "image/png", bytes: RESULT.length },
        { file: "media/003-embedded.png", mimeType: "image/png", bytes: EMBEDDED.length },
      ],
    });
    const saved = JSON.parse(new TextDecoder().decode(unpacked["workflow.json"]));
    expect(saved.nodes[1].data.outputs).toEqual({
      imageUrl: "media/002-2-result.png",
      // The file that could not be read keeps its link.
      images: ["media/003-embedded.png", "/api/media/file/u1/wf/3-gone.png"],
    });
  });

  it("keeps embedded media over 1 MB as a file (a save would drop it)", async () => {
    const big = new Uint8Array(1.5 * 1024 * 1024).map((_, index) => (index * 7) % 256);
    let binary = "";
    for (const byte of big) binary += String.fromCharCode(byte);
    const dataUrl = `data:image/png;base64,${btoa(binary)}`;
    const draft = workflow();
    (draft.nodes[0] as { data: Record<string, unknown> }).data = { outputs: { image: dataUrl } };
    expect(serializeWorkflow({ nodes: draft.nodes, edges: [] }).nodes[0]?.data.outputs).toEqual({});
    const { zip } = await buildPortableZip(draft, exportDeps(), async (planned) =>
      serializeWorkflow({ nodes: planned.nodes, edges: [] }),
    );
    const unpacked = unzipSync(zip);
    const saved = JSON.parse(new TextDecoder().decode(unpacked["workflow.json"]));
    expect(saved.nodes[0].data.outputs).toEqual({ image: "media/001-embedded.png" });
    expect(unpacked["media/001-embedded.png"]?.length).toBe(big.length);
  });

  it("imports on another server: every file uploaded once, every reference moved there", async () => {
    const { zip } = await buildPortableZip(workflow(), exportDeps());
    const { sent, upload } = serverB();
    const steps: (string | null)[] = [];
    const text = await unpackPortableZip(zip, {
      origin: B,
      upload,
      step: (message) => void steps.push(message),
      wait: async () => {},
    });
    expect(sent).toEqual([
      { name: "001-1-cat.png", type: "image/png", bytes: [...CAT] },
      { name: "002-2-result.png", type: "image/png", bytes: [...RESULT] },
      { name: "003-embedded.png", type: "image/png", bytes: [...EMBEDDED] },
    ]);
    expect(steps).toEqual([
      "Reading the .zip…",
      "Uploading media 1 of 3…",
      "Uploading media 2 of 3…",
      "Uploading media 3 of 3…",
    ]);
    const saved = JSON.parse(text) as SavedWorkflow;
    expect(saved.nodes[0]?.data.outputs).toEqual({
      image: `${B}/api/media/file/anon/temporary/1-001-1-cat.png`,
    });
    expect(saved.nodes[1]?.data.outputs).toEqual({
      imageUrl: `${B}/api/media/file/anon/temporary/2-002-2-result.png`,
      images: [
        `${B}/api/media/file/anon/temporary/3-003-embedded.png`,
        "/api/media/file/u1/wf/3-gone.png",
      ],
    });
    expect(saved.metadata.mediaRefs).toEqual([
      "id-1|anon/temporary/1-001-1-cat.png|up|image|image",
    ]);
  });

  it("waits out the server's upload rate limit (429) and goes on", async () => {
    const { zip } = await buildPortableZip(workflow(), exportDeps());
    const { sent, upload } = serverB();
    let refusals = 2;
    const limited = vi.fn<MediaUploader>(async (file, name) => {
      if (name.startsWith("002-") && refusals-- > 0)
        throw new ApiError(429, "Too many uploads from this address: at most 60 a minute");
      return upload(file, name);
    });
    const waits: number[] = [];
    const steps: (string | null)[] = [];
    await unpackPortableZip(zip, {
      origin: B,
      upload: limited,
      step: (message) => void steps.push(message),
      wait: async (ms) => void waits.push(ms),
    });
    expect(sent.map((file) => file.name)).toEqual([
      "001-1-cat.png",
      "002-2-result.png",
      "003-embedded.png",
    ]);
    expect(waits).toEqual([15_000, 15_000]);
    expect(steps).toContain(
      "Uploading media 2 of 3… (waiting: the server takes so many uploads a minute)",
    );
  });

  it("opens the imported workflow as a .json import does", async () => {
    const { zip } = await buildPortableZip(workflow(), exportDeps());
    const open = vi.fn(async (_target: unknown, _file: File) => {});
    const target = {
      replaceDocument: vi.fn(),
      newWorkflow: vi.fn(),
      open: vi.fn(async () => "opened" as const),
      loads: () => 0,
    };
    await importPortableZip(target, new File([zip as BlobPart], "My flow.zip"), {
      origin: B,
      upload: serverB().upload,
      step: () => {},
      wait: async () => {},
      open,
    });
    expect(notify.error).not.toHaveBeenCalled();
    const file = open.mock.calls[0]?.[1] as File;
    expect(file.name).toBe("My flow.json");
    expect(await file.text()).toContain(`${B}/api/media/file/anon/temporary/1-001-1-cat.png`);
  });
});

describe("a bad .zip is refused with its reason; nothing is uploaded or opened", () => {
  const manifest = (media: unknown[]) =>
    strToU8(JSON.stringify({ format: "atelier.portable-workflow", version: 1, media }));
  const workflowFile = strToU8(JSON.stringify(workflow()));

  async function refused(zip: Uint8Array, upload = serverB().upload) {
    const open = vi.fn(async () => {});
    const steps: (string | null)[] = [];
    const target = {
      replaceDocument: vi.fn(),
      newWorkflow: vi.fn(),
      open: vi.fn(async () => "opened" as const),
      loads: () => 0,
    };
    await importPortableZip(target, new File([zip as BlobPart], "bad.zip"), {
      origin: B,
      upload,
      step: (message) => void steps.push(message),
      wait: async () => {},
      open,
    });
    expect(open).not.toHaveBeenCalled();
    expect(target.replaceDocument).not.toHaveBeenCalled();
    expect(steps.at(-1)).toBeNull();
    return vi.mocked(notify.error).mock.calls.map(([message]) => message);
  }

  it("not a zip", async () => {
    expect(await refused(strToU8('{"version":"1.0.0"}'))).toEqual([PORTABLE_MESSAGES.notZip]);
  });

  it("a zip that is not an export", async () => {
    expect(await refused(zipSync({ "notes.txt": strToU8("hi") }))).toEqual([
      PORTABLE_MESSAGES.notExport,
    ]);
  });

  it("a zip-slip name, before anything is uploaded", async () => {
    const { upload } = serverB();
    const zip = zipSync({
      "atelier-export.json": manifest([]),
      "workflow.json": workflowFile,
      "../../evil.png": CAT,
    });
    expect(await refused(zip, upload)).toEqual([PORTABLE_MESSAGES.unsafeName]);
    expect(upload).not.toHaveBeenCalled();
  });

  it("a media file over the upload limit (a zip bomb is refused by its declared size)", async () => {
    const { upload } = serverB();
    const zip = zipSync({
      "atelier-export.json": manifest([{ file: "media/big.png", mimeType: "image/png", bytes: 1 }]),
      "workflow.json": workflowFile,
      "media/big.png": new Uint8Array(51 * 1024 * 1024),
    });
    expect(zip.length).toBeLessThan(1024 * 1024);
    expect(await refused(zip, upload)).toEqual([
      "media/big.png in this .zip is over the 50.00 MB upload limit. Nothing was imported.",
    ]);
    expect(upload).not.toHaveBeenCalled();
  });

  it("a broken workflow, before anything is uploaded", async () => {
    const { upload } = serverB();
    const zip = zipSync({
      "atelier-export.json": manifest([{ file: "media/a.png", mimeType: "image/png", bytes: 7 }]),
      "workflow.json": strToU8("{ nope"),
      "media/a.png": CAT,
    });
    expect(await refused(zip, upload)).toEqual(["Invalid workflow file format"]);
    expect(upload).not.toHaveBeenCalled();
  });

  it("an upload the server refuses names the file and the server's reason", async () => {
    const upload = vi.fn<MediaUploader>(async () => {
      throw new ApiError(400, 'File extension "exe" is not allowed');
    });
    const zip = zipSync({
      "atelier-export.json": manifest([{ file: "media/a.exe", mimeType: "image/png", bytes: 7 }]),
      "workflow.json": workflowFile,
      "media/a.exe": CAT,
    });
    expect(await refused(zip, upload)).toEqual([
      'Could not upload media/a.exe from the .zip: File extension "exe" is not allowed. Nothing was imported.',
    ]);
  });
});
