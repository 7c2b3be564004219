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
