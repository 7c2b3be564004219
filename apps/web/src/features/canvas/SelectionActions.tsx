import {
  ALIGN_MODES,
  type AlignMode,
  alignNodes,
  DISTRIBUTE_AXES,
  type DistributeAxis,
  distributeNodes,
} from "@atelier/core";
import { memo } from "react";
import { useShallow } from "zustand/react/shallow";
import { notify } from "../../ui/notify.ts";
import { useDocument, useDocumentStore } from "../document/context.tsx";
import { CONNECT_EVENT } from "../keyboard/connect-event.ts";

const ALIGN_LABELS: Record<AlignMode, string> = {
  left: "Align left",
  center: "Align centre",
  right: "Align right",
  top: "Align top",
  middle: "Align middle",
  bottom: "Align bottom",
};
const DISTRIBUTE_LABELS: Record<DistributeAxis, string> = {
  horizontal: "Distribute horizontally",
  vertical: "Distribute vertically",
};

/** The selection toolbar's buttons, for `count` selected nodes. */
export const SelectionActions = memo(function SelectionActions({
  count,
  hasGroup,
}: {
  count: number;
  hasGroup: boolean;
}) {
  // The actions only: selecting the whole state would re-render this bar on every drag frame.
  const actions = useDocument(
    useShallow((state) => ({
      arrangeSelection: state.arrangeSelection,
      groupSelection: state.groupSelection,
      ungroupSelection: state.ungroupSelection,
      duplicateSelection: state.duplicateSelection,
      deleteSelection: state.deleteSelection,
    })),
  );
  const align = (mode: AlignMode) => {
    const message = actions.arrangeSelection("Align", (nodes) => alignNodes(nodes, mode));
    if (message) notify.error(message);
  };
  const documents = useDocumentStore();
  // The layout library loads on the first Tidy up, not with the toolbar.
  const tidy = async () => {
    const { tidyUp } = await import("./tidy-up.ts");
    const message = actions.arrangeSelection("Tidy up", (nodes) =>
      tidyUp(nodes, documents.getState().edges),
    );
    if (message) notify.error(message);
  };
  const distribute = (axis: DistributeAxis) => {
    const message = actions.arrangeSelection("Distribute", (nodes) => distributeNodes(nodes, axis));
    if (message) notify.error(message);
  };
  return (
    <div className="selection-toolbar" role="toolbar" aria-label="Selection">
      <span className="muted">{count} selected</span>
      {ALIGN_MODES.map((mode) => (
        <button
          key={mode}
          type="button"
          onClick={() => align(mode)}
          aria-label={ALIGN_LABELS[mode]}
          title={ALIGN_LABELS[mode]}
        >
          {ALIGN_LABELS[mode].replace("Align ", "")}
        </button>
      ))}
      {DISTRIBUTE_AXES.map((axis) => (
        <button
          key={axis}
          type="button"
          onClick={() => distribute(axis)}
          aria-label={DISTRIBUTE_LABELS[axis]}
          title={DISTRIBUTE_LABELS[axis]}
        >
          {axis === "horizontal" ? "↔" : "↕"}
        </button>
      ))}
      <button
        type="button"
        onClick={() => void tidy()}
        title="Lay the selection out left to right along its wires"
      >
        Tidy up
      </button>
      {count === 1 ? (
        <button
          type="button"
          title="Wire this node from the keyboard (C)"
          onClick={() => window.dispatchEvent(new Event(CONNECT_EVENT))}
        >
          Connect…
        </button>
      ) : null}
      <button
        type="button"
        onClick={() =>
          actions.groupSelection() || notify.error("These nodes are already in a group")
        }
      >
        Group
      </button>
      {hasGroup ? (
        <button type="button" onClick={() => actions.ungroupSelection()}>
          Ungroup
        </button>
      ) : null}
      <button type="button" onClick={() => actions.duplicateSelection()}>
        Duplicate
      </button>
      <button type="button" onClick={() => actions.deleteSelection()}>
        Delete
      </button>
    </div>
  );
});
