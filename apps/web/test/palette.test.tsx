import { listNodeDefinitions } from "@atelier/core";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { compatibleTypes } from "../src/features/palette/compatible.ts";
import { Palette } from "../src/features/palette/Palette.tsx";

afterEach(cleanup);

describe("node palette", () => {
  it("lists every node type by category and adds on click", () => {
    const onAdd = vi.fn();
    render(<Palette onAdd={onAdd} />);
    const nav = screen.getByRole("navigation", { name: "Nodes" });
    expect(within(nav).getAllByRole("button")).toHaveLength(listNodeDefinitions().length);
    expect(
      within(screen.getByRole("region", { name: "Video" })).getByRole("button", { name: "Veo 3" }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Kling" }));
    expect(onAdd).toHaveBeenCalledWith("kling-video");
  });

  it("filters by name, type, family or description", () => {
    render(<Palette onAdd={() => undefined} />);
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "3d multi" } });
    const names = screen.getAllByRole("button").map((button) => button.textContent);
    expect(names).toEqual(["Hunyuan 3D Multi-view", "Tripo 3D Multi-view"]);
  });
});

describe("compatible node types for a dropped wire", () => {
  it("offers nodes with an input that takes a text output, wired to that input", () => {
    const choices = compatibleTypes({
      nodeId: "t",
      nodeType: "text",
      handleId: "text",
      side: "source",
    });
    const byType = new Map(choices.map((choice) => [choice.definition.type, choice.portId]));
    expect(byType.get("flux-pro")).toBe("prompt");
    expect(byType.get("utility")).toBe("media");
    expect(byType.has("bg-remover")).toBe(false);
  });

  it("offers nodes whose output can feed an image input", () => {
    const choices = compatibleTypes({
      nodeId: "v",
      nodeType: "kling-video",
      handleId: "image",
      side: "target",
    });
    const types = choices.map((choice) => choice.definition.type);
    expect(types).toContain("flux-pro");
    expect(types).not.toContain("text");
  });
});
