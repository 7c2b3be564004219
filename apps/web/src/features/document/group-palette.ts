import { nextGroupColor } from "@atelier/core";
import type { CanvasNode } from "./types.ts";

/** The colours of the groups on the canvas: a colour is free again once its group is gone. */
const groupColors = (nodes: readonly CanvasNode[]) =>
  nodes.filter((node) => node.type === "group").map((node) => String(node.data.color ?? ""));

/** Hands out group colours in rounds of the palette (core's nextGroupColor). */
export function createGroupPalette(nodes: readonly CanvasNode[]) {
  let given = groupColors(nodes);
  return {
    /** The colour for a new group, given the nodes on the canvas now. */
    next(current: readonly CanvasNode[]): string {
      const next = nextGroupColor(given, groupColors(current));
      given = next.given;
      return next.color;
    },
    /** A new document: the round starts from its groups. */
    reset(current: readonly CanvasNode[]) {
      given = groupColors(current);
    },
  };
}
