/** Every keyboard shortcut, for the handler and for the sheet shown on "?". */
export const SHORTCUTS = [
  { keys: "Delete / Backspace", action: "Delete the selection" },
  { keys: "Ctrl/⌘ + D", action: "Duplicate" },
  { keys: "Ctrl/⌘ + C, Ctrl/⌘ + V", action: "Copy, paste" },
  { keys: "Ctrl/⌘ + A", action: "Select all" },
  { keys: "Ctrl/⌘ + G", action: "Group" },
  { keys: "Ctrl/⌘ + Shift + G", action: "Ungroup" },
  { keys: "Ctrl/⌘ + Z", action: "Undo" },
  { keys: "Ctrl/⌘ + Shift + Z, Ctrl + Y", action: "Redo" },
  { keys: "F", action: "Fit the view" },
  { keys: "Double-click the canvas", action: "Add a node" },
  { keys: "Shift + click, drag a box", action: "Select several" },
  { keys: "?", action: "This sheet" },
  { keys: "Double-click a node's name, F2", action: "Rename the node" },
  { keys: "W / E / R (in a 3D scene)", action: "Move, rotate, scale the picked item" },
  { keys: "Arrows, Shift + ↑/↓ (in a 3D scene)", action: "Nudge the picked item" },
  { keys: "Delete, F, Esc (in a 3D scene)", action: "Hide the item, reset the camera, deselect" },
] as const;

export type ShortcutAction =
  | "duplicate"
  | "copy"
  | "paste"
  | "selectAll"
  | "group"
  | "ungroup"
  | "undo"
  | "redo"
  | "fitView"
  | "help";

/** The action a key press asks for, or null. Typing in a field is never a shortcut. */
export function shortcutFor(event: KeyboardEvent): ShortcutAction | null {
  const target = event.target as HTMLElement | null;
  if (
    target &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  )
    return null;
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (mod && key === "d") return "duplicate";
  if (mod && key === "c") return "copy";
  if (mod && key === "v") return "paste";
  if (mod && key === "a") return "selectAll";
  if (mod && key === "g") return event.shiftKey ? "ungroup" : "group";
  if (mod && key === "z") return event.shiftKey ? "redo" : "undo";
  if (event.ctrlKey && key === "y") return "redo";
  if (!mod && !event.altKey && key === "f") return "fitView";
  if (event.key === "?") return "help";
  return null;
}
