import { listNodeDefinitions } from "@atelier/core";
import type { NodeTypes } from "@xyflow/react";
import { GenericNode } from "./GenericNode.tsx";
import { GroupNode } from "./GroupNode.tsx";

/** React Flow node components by catalogue type: the generic card, and the group frame. */
export const nodeTypes: NodeTypes = Object.fromEntries(
  listNodeDefinitions().map((definition) => [
    definition.type,
    definition.type === "group" ? GroupNode : GenericNode,
  ]),
);
