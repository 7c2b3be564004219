import { gatherInputs, SCENE_VIDEO_DEFAULT_PROMPT } from "@atelier/core";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DocumentProvider, useDocument } from "../src/features/document/context.tsx";
import { createNode } from "../src/features/document/factory.ts";
import { createDocumentStore, type DocumentStore } from "../src/features/document/store.ts";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";
import SceneComposer from "../src/features/nodes/special/scene/SceneComposer.tsx";
import { readLayout } from "../src/features/nodes/special/scene/scene-state.ts";
import type {
  SceneView,
  SceneViewEvents,
  SceneViewItem,
} from "../src/features/nodes/special/scene/scene-view.ts";
import { WEBGL_MISSING } from "../src/features/nodes/special/scene/use-scene.ts";
import { api } from "../src/services/api.ts";
import { notify } from "../src/ui/notify.ts";

/** The three.js view stands in as a fake: jsdom-like DOMs have no WebGL. */
const fake = vi.hoisted(() => ({
  events: null as SceneViewEvents | null,
  view: null as (SceneView & { items: SceneViewItem[] }) | null,
  fail: false,
}));
vi.mock("../src/features/nodes/special/scene/scene-view.ts", () => ({
  createSceneView: (_host: HTMLElement, events: SceneViewEvents) => {
    if (fake.fail) throw new Error("WebGL is not available");
    let camera = { position: [0, 1, 4], target: [0, 0.5, 0] };
    const view = {
      items: [] as SceneViewItem[],
      sync: vi.fn((items: SceneViewItem[]) => {
        view.items = [...items];
      }),
      select: vi.fn(),
      setMode: vi.fn(),
      setLens: vi.fn(),
      setBackground: vi.fn(),
      setCamera: vi.fn((next) => {
        camera = next;
      }),
      camera: () => camera,
      capture: vi.fn(async () => new Blob(["png"], { type: "image/png" })),
      dispose: vi.fn(),
    };
    fake.events = events;
    fake.view = view as never;
    return view;
  },
}));
vi.mock("../src/ui/notify.ts", () => ({
  notify: { error: vi.fn(), info: vi.fn(), action: vi.fn() },
}));

const GLB = "https://x.test/model.glb";
const PNG = "https://x.test/photo.png";

function setup() {
  const scene = { ...createNode("scene-composer", { x: 0, y: 0 }), id: "s" };
  const nodes: CanvasNode[] = [
    scene,
    {
      id: "m",
      type: "3d",
      position: { x: 0, y: 0 },
      data: { label: "Hunyuan 3D", outputValues: { model: { value: GLB } } },
    },
    {
      id: "i",
      type: "flux-pro",
      position: { x: 0, y: 0 },
      data: { label: "FLUX", outputs: { imageUrl: PNG } },
    },
    {
      id: "v",
      type: "kling-video",
      position: { x: 0, y: 0 },
      data: { inputValues: { prompt: { value: "" } } },
    },
  ];
  const edges = [
    { id: "e1", source: "m", sourceHandle: "model", target: "s", targetHandle: "model" },
    { id: "e2", source: "i", sourceHandle: "image", target: "s", targetHandle: "image" },
  ] as CanvasEdge[];
  const documents = createDocumentStore({ nodes, edges });
  function Host() {
    const data = useDocument((state) => state.nodes.find((n) => n.id === "s")?.data);
    return data ? <SceneComposer id="s" data={data} /> : null;
  }
  render(
    <DocumentProvider store={documents}>
      <Host />
    </DocumentProvider>,
  );
  return documents;
}

const dataOf = (documents: DocumentStore, id = "s") =>
  documents.getState().nodes.find((n) => n.id === id)?.data;
const layoutOf = (documents: DocumentStore) =>
  readLayout(dataOf(documents)?.inputValues?.scene?.value);
const viewport = () => screen.getByRole("application", { name: "3D scene" });
/** Waits for the (fake) view, which loads lazily like three.js does; answers Capture. */
async function ready() {
  const button = screen.getByRole("button", { name: "Capture" }) as HTMLButtonElement;
  await vi.waitFor(() => expect(button.disabled).toBe(false));
  return button;
}

beforeEach(() => {
  fake.fail = false;
  fake.view = null;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Scene Composer node", () => {
  it("loads the view, lists what is wired in and stands it in a row", async () => {
    setup();
    expect(screen.getByText("Loading the 3D scene…")).toBeTruthy();
    await ready();
    await vi.waitFor(() => expect(fake.view?.items).toHaveLength(2));
    const list = screen.getByRole("list", { name: "Scene items" });
    expect(within(list).getByRole("button", { name: "Hunyuan 3D" })).toBeTruthy();
    expect(within(list).getByRole("button", { name: "FLUX" })).toBeTruthy();
    expect(within(list).getAllByText("Loading…")).toHaveLength(2);
    expect(fake.view?.items.map((item) => [item.kind, item.url, item.placement.position])).toEqual([
      ["model", GLB, [-0.7, 0, 0]],
      ["image", PNG, [0.7, 0, 0]],
    ]);
    expect(fake.view?.setLens).toHaveBeenLastCalledWith(expect.closeTo(26.99, 1));
    expect(fake.view?.setBackground).toHaveBeenLastCalledWith("#1f1f23");
    act(() => fake.events?.loaded("m/model/0", GLB, null));
    act(() => fake.events?.loaded("i/image/0", PNG, "Image failed to load"));
    expect(within(list).getByRole("alert").textContent).toBe("Image failed to load");
    expect(within(list).queryByText("Loading…")).toBeNull();
  });

  it("switches Move/Rotate/Scale with the buttons and W/E/R; keyboard stays in the scene", async () => {
    setup();
    await ready();
    fireEvent.click(screen.getByRole("button", { name: "Scale" }));
    expect(fake.view?.setMode).toHaveBeenLastCalledWith("scale");
    const key = (init: KeyboardEventInit) => fireEvent.keyDown(viewport(), init);
    const passed = vi.fn();
    window.addEventListener("keydown", passed);
    key({ key: "e" });
    expect(screen.getByRole("button", { name: "Rotate" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    expect(fake.view?.setMode).toHaveBeenLastCalledWith("rotate");
    key({ key: "W" });
    expect(screen.getByRole("button", { name: "Move" }).getAttribute("aria-pressed")).toBe("true");
    expect(passed).not.toHaveBeenCalled();
    key({ key: "z", ctrlKey: true }); // undo belongs to the editor
    expect(passed).toHaveBeenCalledTimes(1);
    window.removeEventListener("keydown", passed);
    // React Flow ignores keys (Delete!) inside `.nokey`.
    expect(viewport().closest(".nokey")).toBeTruthy();
  });

  it("moves the picked item with the arrows, hides it with Delete, one undo each", async () => {
    const documents = setup();
    await ready();
    fireEvent.click(screen.getByRole("button", { name: "Hunyuan 3D" }));
    expect(fake.view?.select).toHaveBeenLastCalledWith("m/model/0");
    expect(document.activeElement).toBe(viewport());
    fireEvent.keyDown(viewport(), { key: "ArrowRight" });
    fireEvent.keyDown(viewport(), { key: "ArrowRight" });
    expect(layoutOf(documents).items["m/model/0"]?.position).toEqual([-0.5, 0, 0]);
    expect(fake.view?.items[0]?.placement.position).toEqual([-0.5, 0, 0]);
    documents.getState().flushPending();
    expect(documents.getState().past).toHaveLength(1);

    fireEvent.keyDown(viewport(), { key: "Delete" });
    expect(layoutOf(documents).items["m/model/0"]?.hidden).toBe(true);
    expect(fake.view?.select).toHaveBeenLastCalledWith(null);
    fireEvent.click(screen.getByRole("button", { name: "Show Hunyuan 3D" }));
    expect(layoutOf(documents).items["m/model/0"]?.hidden).toBeUndefined();

    // Hide and show again, quickly, are one edit (the store groups a node's edits).
    act(() => {
      documents.getState().undo();
    });
    expect(layoutOf(documents).items["m/model/0"]).toEqual({
      position: [-0.5, 0, 0],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
    });
    act(() => {
      documents.getState().undo();
    });
    expect(layoutOf(documents).items["m/model/0"]).toBeUndefined();
    expect(fake.view?.items[0]?.placement.position).toEqual([-0.7, 0, 0]);
  });

  it("saves a gizmo drag and an orbit when they end; an unchanged camera is no edit", async () => {
    const documents = setup();
    await ready();
    act(() =>
      fake.events?.place("i/image/0", {
        position: [1, 0.25, -1],
        rotation: [0, 0.5, 0],
        scale: [2, 2, 2],
      }),
    );
    expect(layoutOf(documents).items["i/image/0"]).toEqual({
      position: [1, 0.25, -1],
      rotation: [0, 0.5, 0],
      scale: [2, 2, 2],
    });
    act(() => fake.events?.look({ position: [3, 2, 5], target: [0, 0.5, 0] }));
    expect(layoutOf(documents).camera).toEqual({ position: [3, 2, 5], target: [0, 0.5, 0] });
    expect(fake.view?.setCamera).toHaveBeenLastCalledWith({
      position: [3, 2, 5],
      target: [0, 0.5, 0],
    });
    documents.getState().flushPending();
    const edits = documents.getState().past.length;
    act(() => fake.events?.look({ position: [3, 2, 5.00001], target: [0, 0.5, 0] }));
    documents.getState().flushPending();
    expect(documents.getState().past).toHaveLength(edits);

    fireEvent.click(screen.getByRole("button", { name: "Reset camera" }));
    expect(layoutOf(documents).camera?.position[0]).toBe(0);
    fireEvent.change(screen.getByRole("combobox", { name: "Lens" }), { target: { value: "85" } });
    expect(dataOf(documents)?.inputValues?.fov?.value).toBe("85");
    expect(fake.view?.setLens).toHaveBeenLastCalledWith(expect.closeTo(16.07, 1));
  });

  it("Capture uploads the view and feeds a video node SPEC §9's default prompt", async () => {
    const documents = setup();
    const upload = vi
      .spyOn(api, "uploadMedia")
      .mockResolvedValue({ url: "https://x.test/shot.png" } as never);
    fireEvent.click(await ready());
    await vi.waitFor(() => expect(dataOf(documents)?.status).toBe("complete"));
    expect(fake.view?.capture).toHaveBeenCalledWith({ width: 1280, height: 720 });
    expect(upload).toHaveBeenCalledWith(expect.any(Blob), expect.stringMatching(/\.png$/), {
      workflowId: "temporary",
      nodeId: "s",
      outputKey: "imageUrl",
    });
    expect(dataOf(documents)?.outputValues).toMatchObject({
      image: { value: "https://x.test/shot.png" },
      camera: { value: { ...fake.view?.camera(), lens: 50, aspect: "16:9" } },
    });
    expect(screen.queryByText("Changed since the last capture")).toBeNull();
    act(() => fake.events?.look({ position: [2, 1, 4], target: [0, 0.5, 0] }));
    expect(screen.getByText("Changed since the last capture")).toBeTruthy();

    act(() => {
      documents
        .getState()
        .connect({ source: "s", sourceHandle: "image", target: "v", targetHandle: "image" });
    });
    const { nodes, edges } = documents.getState();
    expect(gatherInputs(nodes, edges, "v").inputs).toEqual({
      prompt: SCENE_VIDEO_DEFAULT_PROMPT,
      image: "https://x.test/shot.png",
    });
  });

  it("says so when the browser has no WebGL, and when a capture cannot be uploaded", async () => {
    fake.fail = true;
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    setup();
    expect(await screen.findByText(WEBGL_MISSING)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Capture" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    cleanup();

    fake.fail = false;
    const documents = setup();
    vi.spyOn(api, "uploadMedia").mockRejectedValue(new Error("offline"));
    fireEvent.click(await ready());
    await vi.waitFor(() => expect(dataOf(documents)?.status).toBe("error"));
    expect(dataOf(documents)?.error).toBe("Could not capture the scene");
    expect(notify.error).toHaveBeenCalledWith("Could not capture the scene");
  });

  it("disposes of the view when the node goes away", async () => {
    setup();
    await ready();
    const view = fake.view;
    cleanup();
    expect(view?.dispose).toHaveBeenCalledTimes(1);
  });
});
