import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DocumentProvider } from "../src/features/document/context.tsx";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";
import { SpecialContent } from "../src/features/nodes/special/SpecialContent.tsx";
import { showsOwnResult } from "../src/features/nodes/special/special-types.ts";
import type { AutomationData } from "../src/features/runs/automation.ts";
import { RunnerProvider } from "../src/features/runs/context.tsx";
import type { Runner } from "../src/features/runs/runner.ts";
import { runsStore } from "../src/features/runs/runs-store.ts";
import { node, values, wire } from "./helpers/graph.ts";

afterEach(() => {
  cleanup();
  runsStore.getState().clear();
});

/** Renders one node's special content on a document of `nodes`, as the canvas does. */
async function show(nodes: CanvasNode[], edges: CanvasEdge[], id: string) {
  const store = createDocumentStore({ nodes, edges });
  const runner = { cancel: vi.fn(async () => {}) } as unknown as Runner;
  const current = () =>
    store.getState().nodes.find((candidate) => candidate.id === id) as CanvasNode;
  const view = render(
    <DocumentProvider store={store}>
      <RunnerProvider value={runner}>
        <SpecialContent id={id} type={current().type as string} data={current().data} />
      </RunnerProvider>
    </DocumentProvider>,
  );
  // Special content loads lazily: wait for it to replace "Loading…".
  await waitFor(() => expect(screen.queryByText("Loading…")).toBeNull());
  return { ...view, store, runner };
}

describe("special nodes", () => {
  it("an annotation shows its label with its arrow on the chosen side", async () => {
    await show(
      [node("a", "annotation", { inputValues: values({ text: "Inputs", arrow: "right" }) })],
      [],
      "a",
    );
    expect(screen.getByRole("region", { name: "Annotation" }).textContent).toBe("Inputs →");
    cleanup();
    await show(
      [node("a", "annotation", { inputValues: values({ text: "Look", arrow: "up" }) })],
      [],
      "a",
    );
    expect(screen.getByRole("region", { name: "Annotation" }).textContent).toBe("↑ Look");
  });

  it("a notepad with no text invites notes; the generic output section is left out", async () => {
    await show([node("n", "notepad", { inputValues: values({ text: "" }) })], [], "n");
    expect(screen.getByRole("region", { name: "Notes" }).textContent).toBe(
      "Write notes above (markdown works)",
    );
    for (const type of [
      "notepad",
      "annotation",
      "markdown-viewer",
      "container",
      "image-automation",
    ])
      expect(showsOwnResult(type)).toBe(true);
    expect(showsOwnResult("flux-pro")).toBe(false);
  });

  it("an image container shows what is wired into it, once per file, with Download all", async () => {
    const images = ["/api/media/file/a.png", "/api/media/file/b.png"];
    await show(
      [
        node("i1", "utility", { outputs: { imageUrl: images[0] } }),
        node("i2", "utility", { outputs: { imageUrl: images[1] } }),
        node("i3", "utility", { outputs: { imageUrl: images[0] } }),
        node("box", "container"),
      ],
      [
        wire("i1", "image", "box", "media"),
        wire("i2", "image", "box", "media"),
        wire("i3", "image", "box", "media"),
      ],
      "box",
    );
    const gallery = screen.getByRole("list", { name: "Gallery" });
    expect(
      within(gallery)
        .getAllByRole("img")
        .map((img) => img.getAttribute("src")),
    ).toEqual(images);
    expect(screen.getByRole("button", { name: "Download all (2)" })).toBeTruthy();
  });

  it("an audio container plays each clip; an empty one says what to do", async () => {
    await show(
      [
        node("s", "utility", { outputs: { audioUrl: "/api/media/file/a.wav" } }),
        node("box", "audio-container"),
      ],
      [wire("s", "audio", "box", "media")],
      "box",
    );
    expect(document.querySelector("audio")?.getAttribute("src")).toBe("/api/media/file/a.wav");
    cleanup();
    await show([node("box", "3d-container")], [], "box");
    expect(screen.getByText("Connect media to collect it here")).toBeTruthy();
  });

  it("image automation lists the items it will run, then each item's live status and result", async () => {
    const nodes = [
      node("t", "text", { inputValues: values({ text: "fox\nwhale\nowl\nbee" }) }),
      node("auto", "image-automation", { inputValues: values({ splitBy: "line" }) }),
    ];
    await show(nodes, [wire("t", "text", "auto", "media")], "auto");
    expect(screen.getByRole("region", { name: "Automation" }).textContent).toBe(
      "4 items to run: fox, whale, owl…",
    );
    cleanup();

    const automation: AutomationData = {
      runs: [
        {
          item: "fox",
          target: "f",
          port: "prompt",
          requestId: "r0",
          status: "complete",
          result: "/api/media/file/0.png",
          error: null,
        },
        {
          item: "whale",
          target: "f",
          port: "prompt",
          requestId: "r1",
          status: "running",
          result: null,
          error: null,
        },
        {
          item: "owl",
          target: "f",
          port: "prompt",
          requestId: "r2",
          status: "error",
          result: null,
          error: "Content policy",
        },
      ],
    };
    const { runner } = await show(
      [node("auto", "image-automation", { status: "processing", automation })],
      [],
      "auto",
    );
    act(() =>
      runsStore
        .getState()
        .upsert({ nodeId: "auto~1", requestId: "r1", status: "IN_PROGRESS", progress: 40 }),
    );
    const rows = screen.getAllByRole("listitem");
    expect(rows.map((row) => within(row).getByRole("status").textContent)).toEqual([
      "Done",
      "Running · 40 %",
      "Error",
    ]);
    expect(
      within(rows[0] as HTMLElement)
        .getByRole("img")
        .getAttribute("src"),
    ).toBe("/api/media/file/0.png");
    expect(within(rows[2] as HTMLElement).getByText("Content policy")).toBeTruthy();
    expect(screen.getByText(/1 of 3 done/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cancel all" }));
    expect(runner.cancel).toHaveBeenCalledWith("auto");
  });

  it("a character reference shows its images and who it is; empty, it asks for images", async () => {
    await show(
      [
        node("a", "utility", { outputs: { imageUrl: "/api/media/file/a.png" } }),
        node("mia", "character-reference", {
          inputValues: values({ name: "Mia", description: "red hair" }),
        }),
      ],
      [wire("a", "image", "mia", "referenceImages")],
      "mia",
    );
    const card = screen.getByRole("region", { name: "Character" });
    expect(within(card).getByRole("img", { name: "Mia 1" }).getAttribute("src")).toBe(
      "/api/media/file/a.png",
    );
    expect(card.querySelector("figcaption")?.textContent).toBe("Mia — red hair");
    cleanup();
    await show([node("mia", "character-reference")], [], "mia");
    expect(screen.getByText("Connect reference images of the character")).toBeTruthy();
  });
});
