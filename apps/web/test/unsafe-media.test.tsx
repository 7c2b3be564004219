import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { type NodeProps, ReactFlowProvider } from "@xyflow/react";
import type { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DocumentProvider } from "../src/features/document/context.tsx";
import { withSafeStyle } from "../src/features/document/safe-style.ts";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";
import { GroupNode } from "../src/features/nodes/GroupNode.tsx";
import { SpecialContent } from "../src/features/nodes/special/SpecialContent.tsx";
import {
  BlockedMediaError,
  loadImagePlane,
  loadModel,
} from "../src/features/nodes/special/scene/scene-loaders.ts";
import { groupOutputMedia, MediaPreview } from "../src/features/nodes/viewers/MediaPreview.tsx";
import { BLOCKED_MEDIA } from "../src/features/nodes/viewers/safe-url.ts";
import type { AutomationData } from "../src/features/runs/automation.ts";
import { RunnerProvider } from "../src/features/runs/context.tsx";
import type { Runner } from "../src/features/runs/runner.ts";
import { node, values, wire } from "./helpers/graph.ts";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** What a shared workflow's attacker writes where media belongs. */
const HOSTILE = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)//x.png",
  "java\nscript:alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "//evil.example/x.png",
];
const PNG = "data:image/png;base64,iVBORw0KGgo=";
const SVG = "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>";

/** Every address-carrying attribute in `root` that is not an allowed address. */
function badAddresses(root: ParentNode): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll("*"))
    for (const name of ["src", "href", "poster", "download"]) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      const read = value.replace(/\s/g, "").toLowerCase();
      if (/^(javascript|vbscript|data:text|\/\/)|evil\.example/.test(read)) found.push(value);
      if (name !== "src" && read.startsWith("data:image/svg")) found.push(value);
    }
  return found;
}

async function show(nodes: CanvasNode[], edges: CanvasEdge[], id: string) {
  const store = createDocumentStore({ nodes, edges });
  const current = store.getState().nodes.find((candidate) => candidate.id === id) as CanvasNode;
  const view = render(
    <DocumentProvider store={store}>
      <RunnerProvider value={{ cancel: vi.fn() } as unknown as Runner}>
        <SpecialContent id={id} type={current.type as string} data={current.data} />
      </RunnerProvider>
    </DocumentProvider>,
  );
  await waitFor(() => expect(screen.queryByText("Loading…")).toBeNull());
  return view;
}

describe("media from workflow data passes the URL allow-list before the page sees it", () => {
  it("groups only safe outputs and counts what it dropped, stills included", () => {
    expect(
      groupOutputMedia({
        images: [...HOSTILE, PNG, "/api/media/file/a.png"],
        modelUrl: "https://x.test/m.glb",
        snapshot: HOSTILE[0],
        generatedVideo: HOSTILE[4],
        capturedFrame: HOSTILE[1],
      }),
    ).toEqual([
      { kind: "video", urls: [], blocked: 2 },
      { kind: "image", urls: [PNG, "/api/media/file/a.png"], blocked: HOSTILE.length },
      { kind: "model", urls: ["https://x.test/m.glb"], blocked: 1 },
    ]);
  });

  it("a node whose outputs are all hostile says so and renders no media element", async () => {
    const { container } = render(
      <MediaPreview
        outputs={{ imageUrl: HOSTILE[0], videoUrl: HOSTILE[1], audioUrl: HOSTILE[4] }}
      />,
    );
    expect(screen.getAllByRole("note").map((note) => note.textContent)).toEqual([
      BLOCKED_MEDIA,
      BLOCKED_MEDIA,
      BLOCKED_MEDIA,
    ]);
    expect(container.querySelectorAll("img, video, audio, a")).toHaveLength(0);
  });

  it("a node whose outputs are all safe shows no blocked-address note", async () => {
    render(<MediaPreview outputs={{ imageUrl: PNG }} />);
    expect((await screen.findByAltText("Output")).getAttribute("src")).toBe(PNG);
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("shows SVG data inside an image but never offers it as a download", async () => {
    const { container } = render(<MediaPreview outputs={{ images: [SVG, HOSTILE[0]] }} />);
    expect((await screen.findByAltText("Output")).getAttribute("src")).toBe(SVG);
    expect(screen.queryByRole("link", { name: "Download" })).toBeNull();
    expect(screen.getByRole("note").textContent).toBe(BLOCKED_MEDIA);
    fireEvent.click(screen.getByTitle("Open larger view"));
    await screen.findByAltText("Output, larger view");
    expect(badAddresses(container)).toEqual([]);
  });

  it("a gallery shows and downloads only safe items; Download all never clicks a bad link", async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute("href") ?? "");
    });
    const { container } = await show(
      [node("box", "container", { outputs: { items: [...HOSTILE, SVG, PNG] } })],
      [],
      "box",
    );
    const gallery = screen.getByRole("list", { name: "Gallery" });
    expect(
      within(gallery)
        .getAllByRole("img")
        .map((img) => img.getAttribute("src")),
    ).toEqual([SVG, PNG]);
    expect(screen.getByRole("note").textContent).toBe(
      `Blocked ${HOSTILE.length} unsafe media addresses`,
    );
    fireEvent.click(screen.getByRole("button", { name: "Download all (1)" }));
    expect(clicked).toEqual([PNG]);
    expect(badAddresses(container)).toEqual([]);
  });

  it("a 3D gallery's links and a wired gallery's items pass the same list", async () => {
    const { container } = await show(
      [node("box", "3d-container", { outputs: { items: [...HOSTILE, "/api/media/file/m.glb"] } })],
      [],
      "box",
    );
    expect(screen.getByRole("link", { name: "3D model 1" }).getAttribute("href")).toBe(
      "/api/media/file/m.glb",
    );
    expect(badAddresses(container)).toEqual([]);
    cleanup();
    await show(
      [node("feed", "flux-pro", { outputs: { imageUrl: HOSTILE[0] } }), node("box", "container")],
      [wire("feed", "image", "box", "media")],
      "box",
    );
    expect(screen.getByRole("note").textContent).toBe(BLOCKED_MEDIA);
    expect(screen.queryByRole("button", { name: /Download all/ })).toBeNull();
  });

  it("a character reference and an automation's results drop hostile images", async () => {
    const { container } = await show(
      [
        node("feed", "flux-pro", { outputs: { imageUrl: HOSTILE[1] } }),
        node("ref", "character-reference", { inputValues: values({ name: "Mia" }) }),
      ],
      [wire("feed", "image", "ref", "referenceImages")],
      "ref",
    );
    expect(screen.getByRole("note").textContent).toBe(BLOCKED_MEDIA);
    expect(container.querySelectorAll("img")).toHaveLength(0);
    cleanup();
    const automation: AutomationData = {
      runs: [HOSTILE[1] as string, "javascript:alert(1)//clip.mp4"].map((result, index) => ({
        item: `item ${index}`,
        target: "f",
        port: "prompt",
        requestId: `r${index}`,
        status: "complete",
        result,
        error: null,
      })),
    };
    const view = await show([node("auto", "image-automation", { automation })], [], "auto");
    expect(screen.getAllByRole("note")).toHaveLength(2);
    expect(view.container.querySelectorAll("img, video")).toHaveLength(0);
  });

  it("a processing preview never loads a hostile source image", async () => {
    const Image = vi.fn();
    vi.stubGlobal("Image", Image);
    const { container } = await show(
      [node("source", "utility", { outputs: { imageUrl: HOSTILE[0] } }), node("target", "crop")],
      [wire("source", "output", "target", "image")],
      "target",
    );
    expect(screen.getByRole("alert").textContent).toBe(BLOCKED_MEDIA);
    expect(Image).not.toHaveBeenCalled();
    expect(container.querySelectorAll("img, canvas")).toHaveLength(0);
  });

  it("the 3D scene's loaders refuse a hostile address before fetching it", async () => {
    const gltf = { loadAsync: vi.fn() } as unknown as GLTFLoader;
    await expect(loadModel(HOSTILE[0] as string, gltf)).rejects.toBeInstanceOf(BlockedMediaError);
    const textures = { loadAsync: vi.fn() };
    await expect(loadImagePlane(HOSTILE[5] as string, textures as never)).rejects.toThrow(
      BLOCKED_MEDIA,
    );
    expect(gltf.loadAsync).not.toHaveBeenCalled();
    expect(textures.loadAsync).not.toHaveBeenCalled();
  });
});

describe("styles from a loaded document", () => {
  it("drop what would load something, keep sizes and colours", () => {
    const clean = { id: "g", style: { width: 300, height: 140, stroke: "#fff" } };
    expect(withSafeStyle(clean)).toBe(clean);
    expect(
      withSafeStyle({
        id: "g",
        style: {
          width: 300,
          backgroundImage: "url(//evil.example/bg.png)",
          background: "red image-set('x.png' 1x)",
          border: "1px solid \\75 rl(x)",
          color: "rgb(1, 2, 3)",
          // React would print these as text: "url(//evil.example/px)".
          backgroundColor: ["url(//evil.example/px)"],
          outline: { toString: () => "url(//evil.example/px)" },
          opacity: Number.NaN,
        },
      }),
    ).toEqual({ id: "g", style: { width: 300, color: "rgb(1, 2, 3)" } });
  });

  it("are dropped as a workflow loads; a group keeps only a real colour", async () => {
    const store = createDocumentStore({ nodes: [], edges: [] });
    store.getState().load({
      nodes: [
        {
          ...node("g", "group", { label: "Frame", color: "url(//evil.example/c.png)" }),
          style: { width: 300, height: 140, backgroundImage: "url(//evil.example/bg.png)" },
        },
      ],
      edges: [],
    });
    expect(store.getState().nodes[0]?.style).toEqual({ width: 300, height: 140 });
    const group = store.getState().nodes[0] as CanvasNode;
    const props = { id: "g", data: group.data, selected: false } as NodeProps<CanvasNode>;
    const { container } = render(
      <ReactFlowProvider>
        <GroupNode {...props} />
      </ReactFlowProvider>,
    );
    expect(container.innerHTML).not.toContain("evil.example");
    expect(container.querySelector(".group-title")?.getAttribute("style")).toContain("#64748b");
  });
});
