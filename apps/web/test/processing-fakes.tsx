import { render } from "@testing-library/react";
import { vi } from "vitest";
import { DocumentProvider, useDocument } from "../src/features/document/context.tsx";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { CanvasEdge, CanvasNode, CanvasNodeData } from "../src/features/document/types.ts";
import ProcessingPreview from "../src/features/nodes/special/processing/ProcessingPreview.tsx";
import { forgetSourceImages } from "../src/features/nodes/special/processing/source-image.ts";

/* Fakes for the processing previews: images that "load" at a set size, and a recording
   canvas context (happy-dom has no canvas 2D). */

export const IMAGE_URL = "/api/media/file/user/source.png";

export const node = (id: string, type: string, data: CanvasNodeData = {}): CanvasNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});
export const values = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, { value }]));

/** Installs an Image whose loads succeed at `width`×`height` (or fail for `failing` URLs). */
export function fakeImages(width: number, height: number, failing: string[] = []) {
  forgetSourceImages();
  class FakeImage {
    naturalWidth = 0;
    naturalHeight = 0;
    crossOrigin: string | null = null;
    decoding = "auto";
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private url = "";
    get src() {
      return this.url;
    }
    set src(url: string) {
      this.url = url;
      queueMicrotask(() => {
        if (failing.includes(url)) return this.onerror?.();
        this.naturalWidth = width;
        this.naturalHeight = height;
        this.onload?.();
      });
    }
  }
  vi.stubGlobal("Image", FakeImage);
}

export interface Call {
  name: string;
  args: unknown[];
}

/** Every canvas gets a context that records its drawing calls into `calls`. */
export function fakeCanvas(pixels: (width: number, height: number) => Uint8ClampedArray) {
  const calls: Call[] = [];
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(function (
    this: HTMLCanvasElement,
  ) {
    const record =
      (name: string) =>
      (...args: unknown[]) => {
        calls.push({ name, args });
      };
    return {
      canvas: this,
      fillStyle: "",
      filter: "none",
      imageSmoothingQuality: "low",
      setTransform: record("setTransform"),
      drawImage: record("drawImage"),
      clearRect: record("clearRect"),
      fillRect: record("fillRect"),
      save: record("save"),
      restore: record("restore"),
      getImageData: (_x: number, _y: number, w: number, h: number) => ({
        data: pixels(w, h),
        width: w,
        height: h,
      }),
      putImageData: record("putImageData"),
    } as unknown as CanvasRenderingContext2D;
  } as unknown as typeof HTMLCanvasElement.prototype.getContext);
  return calls;
}

/** A node card's preview as the canvas shows it: it follows the node's data in the store. */
function Card({ id, type }: { id: string; type: string }) {
  const data = useDocument((state) => state.nodes.find((candidate) => candidate.id === id)?.data);
  return data ? <ProcessingPreview id={id} type={type} data={data} /> : null;
}

/** Renders the preview of node `id` (of `type`) fed by an image node holding IMAGE_URL. */
export function showPreview(type: string, params: Record<string, unknown> = {}, wired = true) {
  const nodes = [
    node("source", "utility", { outputs: { imageUrl: IMAGE_URL } }),
    node("other", "text", { inputValues: values({ text: "unrelated" }) }),
    node("target", type, { inputValues: values(params) }),
  ];
  const edges = wired
    ? [
        {
          id: "wire",
          source: "source",
          sourceHandle: "output",
          target: "target",
          targetHandle: "image",
        } as CanvasEdge,
      ]
    : [];
  const store = createDocumentStore({ nodes, edges });
  const view = render(
    <DocumentProvider store={store}>
      <Card id="target" type={type} />
    </DocumentProvider>,
  );
  const params_ = () =>
    Object.fromEntries(
      Object.entries(
        store.getState().nodes.find((candidate) => candidate.id === "target")?.data.inputValues ??
          {},
      ).map(([key, slot]) => [key, slot.value]),
    );
  return { ...view, store, params: params_ };
}
