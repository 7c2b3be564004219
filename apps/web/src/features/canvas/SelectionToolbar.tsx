import { memo } from "react";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { useDocument } from "../document/context.tsx";

// The buttons arrive with the first selection (or when the browser is idle), not with the
// editor's first paint (DESIGN §7).
const SelectionActions = lazyPart(() =>
  import("./SelectionActions.tsx").then((module) => module.SelectionActions),
);

/** Shown above the canvas while something is selected. */
export const SelectionToolbar = memo(function SelectionToolbar() {
  const count = useDocument((state) =>
    state.nodes.reduce((total, node) => total + (node.selected ? 1 : 0), 0),
  );
  const hasGroup = useDocument((state) =>
    state.nodes.some((node) => node.selected && node.type === "group"),
  );
  if (count === 0) return null;
  return <SelectionActions count={count} hasGroup={hasGroup} />;
});
