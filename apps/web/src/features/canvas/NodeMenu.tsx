import { type KeyboardEvent, useCallback, useEffect, useState } from "react";
import { type Point, usePopupPlacement } from "../../ui/place-popup.ts";
import { useDocumentStore } from "../document/context.tsx";
import { selectOnly } from "../document/factory.ts";
import { CONNECT_EVENT } from "../keyboard/connect-event.ts";
import { useRunner } from "../runs/context.tsx";
import { watchLongPress } from "./long-press.ts";

/**
 * Opens a node's menu on a right-click (mouse, pen, the keyboard's menu key) or a long-press
 * (touch). Loaded after the canvas's first paint, like the keyboard wiring: none of it is in
 * the editor's first load. Text fields in a node keep the browser's own menu.
 */
export function NodeMenuWiring() {
  const [menu, setMenu] = useState<{ id: string; at: Point } | null>(null);
  const close = useCallback(() => setMenu(null), []);
  useEffect(() => {
    const open = (id: string, x: number, y: number) => setMenu({ id, at: { x, y } });
    const onPointerDown = (event: PointerEvent) => watchLongPress(event, open);
    const onContextMenu = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const id = target?.closest(".react-flow__node")?.getAttribute("data-id");
      if (!id || target?.closest("input, textarea, select")) return;
      event.preventDefault();
      open(id, event.clientX, event.clientY);
    };
    // Capturing: nothing on the canvas can keep them from the menu.
    window.addEventListener("pointerdown", onPointerDown, true);
    window.addEventListener("contextmenu", onContextMenu, true);
    return () => {
      window.removeEventListener("pointerdown", onPointerDown, true);
      window.removeEventListener("contextmenu", onContextMenu, true);
    };
  }, []);
  return menu ? <NodeMenu nodeId={menu.id} at={menu.at} onClose={close} /> : null;
}

interface Props {
  nodeId: string;
  at: Point;
  onClose(): void;
}

/**
 * A node's menu. It acts on the selection: a node outside it becomes the only one selected, so what the menu does is also
 * what the selection toolbar shows.
 */
function NodeMenu({ nodeId, at, onClose }: Props) {
  const documents = useDocumentStore();
  const runner = useRunner();
  const { ref, style } = usePopupPlacement<HTMLDivElement>(at);
  const [count, setCount] = useState(1);
  const type = documents.getState().nodes.find((node) => node.id === nodeId)?.type;
  const runnable = runner.isRunnable(type);

  useEffect(() => {
    const state = documents.getState();
    const node = state.nodes.find((candidate) => candidate.id === nodeId);
    if (node && !node.selected)
      documents.setState({ nodes: selectOnly(state.nodes, new Set([nodeId])) });
    setCount(documents.getState().nodes.filter((candidate) => candidate.selected).length);
    ref.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    // A press anywhere else, or the wheel moving the canvas under it, closes it.
    const outside = (event: Event) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("wheel", outside);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("wheel", outside);
    };
  }, [documents, nodeId, onClose, ref]);

  // Arrow keys move between the items; Escape and Tab close it.
  const onKeyDown = (event: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      onClose();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    }
  };
  const choose = (action: () => void) => () => {
    onClose();
    action();
  };

  return (
    <div
      ref={ref}
      style={style}
      className="menu node-menu"
      role="menu"
      aria-label="Node actions"
      onKeyDown={onKeyDown}
    >
      {runnable && count === 1 ? (
        <button type="button" role="menuitem" onClick={choose(() => void runner.runGraph(nodeId))}>
          Run to here
        </button>
      ) : null}
      {count === 1 ? (
        <button
          type="button"
          role="menuitem"
          onClick={choose(() => window.dispatchEvent(new Event(CONNECT_EVENT)))}
        >
          Connect…
        </button>
      ) : null}
      <button
        type="button"
        role="menuitem"
        onClick={choose(() => documents.getState().duplicateSelection())}
      >
        Duplicate
      </button>
      <button
        type="button"
        role="menuitem"
        onClick={choose(() => documents.getState().deleteSelection())}
      >
        Delete
      </button>
    </div>
  );
}
