import { UPLOAD_MESSAGES } from "@atelier/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import { UploadProgress } from "../src/features/nodes/UploadProgress.tsx";
import {
  type DropUploadOptions,
  dropUpload,
  mediaKindOf,
  UPLOAD_FAILED,
  UPLOAD_NODE_TYPE,
  uploadWorkflowId,
} from "../src/features/uploads/drop-upload.ts";
import { runUploadQueue } from "../src/features/uploads/media-uploads.ts";
import { ApiError } from "../src/services/api.ts";
import { notify } from "../src/ui/notify.ts";

vi.mock("../src/ui/notify.ts", () => ({
  notify: { error: vi.fn(), info: vi.fn(), action: vi.fn() },
}));

const png = (name = "pic.png", bytes = 64) =>
  new File([new Uint8Array(bytes)], name, { type: "image/png" });

/** A fake File that claims to be `size` bytes without holding them. */
const sized = (name: string, type: string, size: number) => {
  const file = new File(["x"], name, { type });
  Object.defineProperty(file, "size", { value: size });
  return file;
};

type Upload = NonNullable<DropUploadOptions["upload"]>;

function setup(upload: Upload = async (_file, name) => ({ url: `/api/media/file/u/w/${name}` })) {
  const documents = createDocumentStore();
  const uploadSpy = vi.fn(upload);
  const queue = vi.fn(runUploadQueue);
  const options: DropUploadOptions = {
    documents,
    upload: uploadSpy,
    queue,
    workflowId: "wf-1",
    compressImages: false,
    queueOptions: { wait: async () => {} },
  };
  const node = (id: string | null) => documents.getState().nodes.find((n) => n.id === id);
  return { documents, upload: uploadSpy, queue, options, node };
}

beforeEach(() => vi.mocked(notify.error).mockClear());

describe("dropping files on the canvas (SPEC §5 uploads, §9 queue)", () => {
  it("refuses a bad extension with SPEC's message and makes no node", async () => {
    const { documents, upload, options } = setup();
    const results = await dropUpload(
      [new File(["hi"], "notes.txt", { type: "text/plain" })],
      { x: 0, y: 0 },
      options,
    );
    const message = UPLOAD_MESSAGES.extensionNotAllowed("txt");
    expect(message).toMatch(/^File extension "txt" is not allowed\. Allowed extensions: jpg, /);
    expect(notify.error).toHaveBeenCalledWith(message);
    expect(results).toEqual([{ name: "notes.txt", nodeId: null, url: null, error: message }]);
    expect(documents.getState().nodes).toHaveLength(0);
    expect(upload).not.toHaveBeenCalled();
  });

  it("refuses a file over 50 MB with SPEC's message", async () => {
    const { documents, upload, options } = setup();
    await dropUpload(
      [sized("huge.png", "image/png", 50 * 1024 * 1024 + 1)],
      { x: 0, y: 0 },
      options,
    );
    expect(notify.error).toHaveBeenCalledWith("File size exceeds maximum allowed size of 50MB");
    expect(documents.getState().nodes).toHaveLength(0);
    expect(upload).not.toHaveBeenCalled();
  });

  it("uploads each file once through one queue; the nodes hold the storage URLs", async () => {
    const { upload, queue, options, node } = setup();
    const results = await dropUpload(
      [png("a.png"), new File(["x"], "b.txt"), png("c.png")],
      { x: 100, y: 200 },
      options,
    );
    expect(queue).toHaveBeenCalledTimes(1);
    expect(queue.mock.calls[0]?.[0]).toHaveLength(2);
    expect(upload).toHaveBeenCalledTimes(2);
    expect(upload.mock.calls.map((call) => [call[1], call[2].workflowId])).toEqual([
      ["a.png", "wf-1"],
      ["c.png", "wf-1"],
    ]);
    expect(notify.error).toHaveBeenCalledTimes(1);

    const [a, , c] = results;
    expect(a?.url).toBe("/api/media/file/u/w/a.png");
    const first = node(a?.nodeId ?? null);
    expect(first?.type).toBe(UPLOAD_NODE_TYPE);
    expect(first?.position).toEqual({ x: 100, y: 200 });
    expect(node(c?.nodeId ?? null)?.position).toEqual({ x: 140, y: 240 });
    expect(first?.data).toMatchObject({
      label: "a.png",
      status: "complete",
      error: null,
      outputs: { imageUrl: "/api/media/file/u/w/a.png" },
      outputValues: { output: { value: "/api/media/file/u/w/a.png" } },
    });
    expect(first?.data).not.toHaveProperty("uploadProgress");
  });

  it("shows progress while uploading", async () => {
    let finish: (value: { url: string }) => void = () => {};
    const { options, node, documents } = setup(() => new Promise((resolve) => (finish = resolve)));
    const done = dropUpload([png()], { x: 0, y: 0 }, options);
    await vi.waitFor(() => expect(documents.getState().nodes[0]?.data.uploadProgress).toBe(40));
    const id = documents.getState().nodes[0]?.id ?? null;
    expect(node(id)?.data.status).toBe("processing");
    finish({ url: "/api/media/file/u/w/x.png" });
    await done;
    expect(node(id)?.data.status).toBe("complete");
  });

  it("after 3 retries marks the node and toasts the failure", async () => {
    const { upload, options, node } = setup(async () => {
      throw new ApiError(0, "Network error");
    });
    const [result] = await dropUpload([png()], { x: 0, y: 0 }, options);
    expect(upload).toHaveBeenCalledTimes(4);
    expect(result?.error).toBe(UPLOAD_FAILED);
    expect(notify.error).toHaveBeenCalledWith("Failed to upload media");
    expect(node(result?.nodeId ?? null)?.data).toMatchObject({
      status: "error",
      error: "Failed to upload media",
    });
    expect(node(result?.nodeId ?? null)?.data.outputs).toBeUndefined();
  });

  it("toasts the server's refusal as it says it", async () => {
    const { options } = setup(async () => {
      throw new ApiError(400, "The image could not be read");
    });
    await dropUpload([png()], { x: 0, y: 0 }, options);
    expect(notify.error).toHaveBeenCalledWith("The image could not be read");
  });

  it("compresses images when the preference is on, once, and names the result .jpg", async () => {
    const jpeg = new Blob([new Uint8Array(10)], { type: "image/jpeg" });
    const compress = vi.fn(async () => jpeg);
    const { upload, options } = setup();
    await dropUpload(
      [png("photo.webp")],
      { x: 0, y: 0 },
      {
        ...options,
        compressImages: true,
        compress,
      },
    );
    expect(compress).toHaveBeenCalledTimes(1);
    expect(upload.mock.calls[0]?.[0]).toBe(jpeg);
    expect(upload.mock.calls[0]?.[1]).toBe("photo.jpg");

    compress.mockClear();
    await dropUpload([png()], { x: 0, y: 0 }, { ...options, compressImages: false, compress });
    expect(compress).not.toHaveBeenCalled();
  });

  it("puts video, audio and 3D URLs under their SPEC output keys", async () => {
    const { options, node } = setup();
    const results = await dropUpload(
      [
        new File(["x"], "clip.webm", { type: "video/webm" }),
        new File(["x"], "song.webm", { type: "audio/webm" }),
        new File(["x"], "thing.glb", { type: "" }),
      ],
      { x: 0, y: 0 },
      options,
    );
    const keys = results.map((result) => Object.keys(node(result.nodeId)?.data.outputs ?? {}));
    expect(keys).toEqual([["videoUrl"], ["audioUrl"], ["glbUrl"]]);
  });
});

describe("upload helpers", () => {
  it("uploads for the open cloud workflow only when signed in, else for 'temporary'", () => {
    const user = { id: "u1", email: "a@b.c" } as never;
    expect(uploadWorkflowId({ user: null, location: "cloud", workflowId: "w" })).toBe("temporary");
    expect(uploadWorkflowId({ user, location: "local", workflowId: "w" })).toBe("temporary");
    expect(uploadWorkflowId({ user, location: "cloud", workflowId: "w" })).toBe("w");
  });

  it("reads the kind from the extension, the MIME type settling webm and ogg", () => {
    expect(mediaKindOf({ name: "a.PNG", type: "image/png" })).toBe("image");
    expect(mediaKindOf({ name: "a.ogg", type: "audio/ogg" })).toBe("audio");
    expect(mediaKindOf({ name: "a.ogg", type: "" })).toBe("video");
    expect(mediaKindOf({ name: "a.txt", type: "text/plain" })).toBeNull();
  });
});

describe("UploadProgress", () => {
  const markup = (progress: unknown) =>
    renderToStaticMarkup(createElement(UploadProgress, { progress }));

  it("shows the percentage while uploading, clamped, and nothing otherwise", () => {
    expect(markup(42)).toContain("Uploading · 42 %");
    expect(markup(42)).toContain('value="42"');
    expect(markup(140)).toContain("100 %");
    expect(markup(undefined)).toBe("");
  });
});
