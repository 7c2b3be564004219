import { gatherInputs } from "@atelier/core";
import { useDocument } from "../../document/context.tsx";
import type { CanvasNodeData } from "../../document/types.ts";
import { MarkdownView } from "./MarkdownView.tsx";

/** The text wired into the node's `text` input, or null. */
function useIncomingText(id: string): string | null {
  return useDocument((state) => {
    const text = gatherInputs(state.nodes, state.edges, id).inputs.text;
    return typeof text === "string" ? text : null;
  });
}

/** The markdown viewer: its wired text, else its own. */
export function MarkdownViewer({ id, data }: { id: string; data: CanvasNodeData }) {
  const incoming = useIncomingText(id);
  const own = data.inputValues?.text?.value;
  return (
    <MarkdownView
      text={incoming ?? (typeof own === "string" ? own : "")}
      empty="Nothing to show yet"
    />
  );
}
