import type { CanvasNode } from "../document/types.ts";

/**
 * Whether any node was added, removed, moved or resized between two node lists (conservative:
 * a new position object counts as a move). Edits make new objects only for the nodes they
 * touch, so unchanged nodes compare by identity.
 */
export function boxesChanged(before: readonly CanvasNode[], after: readonly CanvasNode[]): boolean {
  if (before.length !== after.length) return true;
  for (let index = 0; index < after.length; index++) {
    const a = before[index] as CanvasNode;
    const b = after[index] as CanvasNode;
    if (a === b) continue;
    if (
      a.id !== b.id ||
      a.position !== b.position ||
      // A resize sets `measured` too (with `width` and `height` for a resizable node).
      a.measured !== b.measured ||
      a.parentId !== b.parentId ||
      a.hidden !== b.hidden
    )
      return true;
  }
  return false;
}
