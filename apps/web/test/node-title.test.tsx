import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentProvider, useDocument } from "../src/features/document/context.tsx";
import { createDocumentStore } from "../src/features/document/store.ts";
import { NODE_LABEL_MAX, NodeTitle } from "../src/features/nodes/NodeTitle.tsx";
import { node } from "./helpers/graph.ts";

afterEach(cleanup);

/** The title as the node shows it: its label read from the document. */
function Title() {
  const label = useDocument((state) => state.nodes[0]?.data.label);
  return <NodeTitle id="n" label={label} typeName="FLUX1.1 [pro]" showLabel />;
}

function showTitle(initial?: string) {
  const store = createDocumentStore({
    nodes: [node("n", "flux-pro", { label: initial })],
    edges: [],
  });
  render(
    <DocumentProvider store={store}>
      <Title />
    </DocumentProvider>,
  );
  return { store, label: () => store.getState().nodes[0]?.data.label };
}

const rename = (value: string, key = "Enter") => {
  fireEvent.doubleClick(screen.getByRole("button", { name: /FLUX|Hero/ }));
  const field = screen.getByRole("textbox", { name: "Node name" });
  fireEvent.change(field, { target: { value } });
  fireEvent.keyDown(field, { key });
};

describe("node names", () => {
  it("renames on double-click and Enter, as one undoable edit", () => {
    const { store, label } = showTitle();
    rename("  Hero shot  ");
    expect(label()).toBe("Hero shot");
    store.getState().undo();
    expect(label()).toBeUndefined();
  });

  it("Escape keeps the old name; an empty name goes back to the type's; long names are cut", () => {
    const { label } = showTitle("Hero");
    rename("Other", "Escape");
    expect(label()).toBe("Hero");
    expect(screen.getByRole("button", { name: /Hero/ })).toBeTruthy();
    rename("   ");
    expect(label()).toBeUndefined();
    cleanup();
    const long = showTitle();
    rename("x".repeat(200));
    expect(long.label()).toHaveLength(NODE_LABEL_MAX);
  });
});
