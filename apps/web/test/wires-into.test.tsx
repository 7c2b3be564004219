import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentProvider } from "../src/features/document/context.tsx";
import { createDocumentStore } from "../src/features/document/store.ts";
import { useWiresInto } from "../src/features/nodes/use-wires-into.ts";
import { wireOf } from "../src/features/nodes/wired-value.ts";
import { node, wire } from "./helpers/graph.ts";

afterEach(cleanup);

let renders = 0;

/** What node "image" shows of its wires: the source of its prompt, or "none". */
function Probe() {
  renders++;
  const wires = useWiresInto("image", "prompt");
  return <output>{wireOf(wires, "prompt")?.join(" ") ?? "none"}</output>;
}

function show() {
  const store = createDocumentStore({
    nodes: [node("text", "text-prompt"), node("image", "flux-pro")],
    edges: [],
  });
  render(
    <DocumentProvider store={store}>
      <Probe />
    </DocumentProvider>,
  );
  renders = 0;
  return { store };
}

const connect = (store: ReturnType<typeof createDocumentStore>) =>
  act(() => store.setState({ edges: [wire("text", "text", "image", "prompt")] }));

const move = (store: ReturnType<typeof createDocumentStore>) =>
  act(() =>
    store
      .getState()
      .onNodesChange([{ type: "position", id: "text", position: { x: 40, y: 0 }, dragging: true }]),
  );

describe("the wires into a node", () => {
  it("follow the document's wires, and a move of any node does not render the card", () => {
    const { store } = show();
    expect(screen.getByRole("status").textContent).toBe("none");
    connect(store);
    expect(screen.getByRole("status").textContent).toBe("text text");
    const before = renders;
    move(store);
    expect(store.getState().nodes[0]?.position).toEqual({ x: 40, y: 0 });
    expect(renders).toBe(before);
  });
});
