import { Modal } from "../../ui/Modal.tsx";

/** Every keyboard shortcut, as the sheet shown on "?" lists them (shortcuts.ts handles them). */
const SHORTCUTS = [
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
  { keys: "Tab, Shift + Tab (on a node)", action: "Next, previous node" },
  { keys: "Enter (on a node), Esc (in its form)", action: "Into the node's form, back out" },
  { keys: "C", action: "Connect the node to another, from a list" },
  { keys: "?", action: "This sheet" },
  { keys: "Double-click a node's name, F2", action: "Rename the node" },
  { keys: "W / E / R (in a 3D scene)", action: "Move, rotate, scale the picked item" },
  { keys: "Arrows, Shift + ↑/↓ (in a 3D scene)", action: "Nudge the picked item" },
  { keys: "Delete, F, Esc (in a 3D scene)", action: "Hide the item, reset the camera, deselect" },
] as const;

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <Modal label="Keyboard shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys}>
              <th scope="row">
                <kbd>{shortcut.keys}</kbd>
              </th>
              <td>{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
