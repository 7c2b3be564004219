import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { type NodeProps, ReactFlowProvider } from "@xyflow/react";
import { Profiler } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentProvider } from "../src/features/document/context.tsx";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { CanvasNode } from "../src/features/document/types.ts";
import { ZoomedOut } from "../src/features/nodes/detail-level.ts";
import { GenericNode } from "../src/features/nodes/GenericNode.tsx";
import { RunnerProvider } from "../src/features/runs/context.tsx";
import type { Runner } from "../src/features/runs/runner.ts";
import { node, wire } from "./helpers/graph.ts";

afterEach(cleanup);

const runner = { isRunnable: () => false } as unknown as Runner;

/** Node "image" (flux-pro) drawn as the canvas draws it, zoomed out or not. */
function show(zoomedOut: boolean, data: Partial<CanvasNode["data"]> = {}) {
  const store = createDocumentStore({
    nodes: [node("text", "text-prompt"), node("image", "flux-pro", { label: "Poster", ...data })],
    edges: [],
  });
  let commits = 0;
  const tree = (simple: boolean) => {
    const image = store.getState().nodes[1] as CanvasNode;
    const props = { id: "image", type: "flux-pro", data: image.data, selected: false };
    return (
      <ReactFlowProvider>
        <DocumentProvider store={store}>
          <RunnerProvider value={runner}>
            <ZoomedOut.Provider value={simple}>
              <Profiler id="node" onRender={() => commits++}>
                <GenericNode {...(props as NodeProps<CanvasNode>)} />
              </Profiler>
            </ZoomedOut.Provider>
          </RunnerProvider>
        </DocumentProvider>
      </ReactFlowProvider>
    );
  };
  const view = render(tree(zoomedOut));
  commits = 0;
  return { store, zoom: (simple: boolean) => view.rerender(tree(simple)), commits: () => commits };
}

describe("a catalogue node", () => {
  it("zoomed out, is a box with its label and port marks that no wire or move re-renders", () => {
    const { store, commits } = show(true);
    const box = screen.getByTestId("node-image");
    expect(box.className).toBe("node node-simple status-idle");
    expect(box.textContent).toBe("Poster");
    expect(box.querySelectorAll(".port-marker.target").length).toBeGreaterThan(0);
    expect(box.querySelectorAll(".port-marker.source").length).toBeGreaterThan(0);
    act(() => store.setState({ edges: [wire("text", "text", "image", "prompt")] }));
    act(() =>
      store
        .getState()
        .onNodesChange([
          { type: "position", id: "text", position: { x: 40, y: 0 }, dragging: true },
        ]),
    );
    expect(commits()).toBe(0);
  });

  it("keeps its advanced fields open across a zoom out and back in", () => {
    const { zoom } = show(false);
    fireEvent.click(screen.getByRole("button", { name: /^Advanced \(\d+\)$/ }));
    expect(screen.getByRole("button", { name: "Hide advanced" })).toBeTruthy();
    zoom(true);
    expect(screen.queryByRole("button", { name: "Hide advanced" })).toBeNull();
    expect(screen.getByTestId("node-image").className).toContain("node-simple");
    zoom(false);
    expect(screen.getByRole("button", { name: "Hide advanced" })).toBeTruthy();
  });

  it("shows the upload bar (loaded on first use) while a file is uploaded into it", async () => {
    show(false, { uploadProgress: 40 });
    expect(
      (await screen.findByRole("progressbar", { name: "Upload progress" })).getAttribute("value"),
    ).toBe("40");
    expect(screen.getByText("Uploading · 40 %")).toBeTruthy();
    cleanup();
    show(false);
    expect(screen.queryByTestId("upload-progress")).toBeNull();
  });
});
