import { type NodeProps, NodeResizer } from "@xyflow/react";
import { memo } from "react";
import type { CanvasNode } from "../document/types.ts";
import { countRender } from "./render-counts.ts";

/**
 * A group's colour as written in the document, when it is only a colour: a hex, a named
 * colour or rgb()/hsl() of numbers — never `url(…)` or other CSS that would load something.
 */
const COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|(rgb|hsl)a?\([\d\s.,%/+-]*\))$/i;
const DEFAULT_COLOR = "#64748b";

/** A coloured frame with its title; dragging it moves its children (React Flow parentId). */
export const GroupNode = memo(function GroupNode({ id, data, selected }: NodeProps<CanvasNode>) {
  countRender(id);
  const color =
    typeof data.color === "string" && COLOR.test(data.color) ? data.color : DEFAULT_COLOR;
  return (
    <div
      className={`group-node${selected ? " selected" : ""}`}
      style={{ borderColor: color, background: `${color}14` }}
      data-testid={`node-${id}`}
    >
      <NodeResizer isVisible={Boolean(selected)} minWidth={120} minHeight={100} />
      <div className="group-title" style={{ background: color }}>
        {data.label ?? "Group"}
      </div>
    </div>
  );
});
