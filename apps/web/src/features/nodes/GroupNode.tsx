import { type NodeProps, NodeResizer } from "@xyflow/react";
import { memo } from "react";
import type { CanvasNode } from "../document/types.ts";
import { countRender } from "./render-counts.ts";

/** A coloured frame with its title; dragging it moves its children (React Flow parentId). */
export const GroupNode = memo(function GroupNode({ id, data, selected }: NodeProps<CanvasNode>) {
  countRender(id);
  const color = String(data.color ?? "#64748b");
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
