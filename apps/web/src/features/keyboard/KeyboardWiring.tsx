import { useReactFlow } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { notify } from "../../ui/notify.ts";
import { useDocumentStore } from "../document/context.tsx";
import { CONNECT_EVENT } from "./connect-event.ts";

/*
 * The canvas from the keyboard (loaded off the editor's first load):
 * - Tab / Shift+Tab on a node go to the next / previous node in the workflow's order, not
 *   through its fields; a node out of view (not rendered) is panned to first;
 * - Enter on a node opens its form (focus on its first field); Escape in a field goes back
 *   to the node;
 * - C, or the selection toolbar's "Connect…", lists the wires the node could take or give.
 */

// The list and its dialog load when first asked for.
const ConnectDialog = lazyPart(() =>
  import("./ConnectDialog.tsx").then((module) => module.ConnectDialog),
);

const NODE = ".react-flow__node[data-id]";
const FIELD = "input, textarea, select";

/** The page itself or the canvas, not a 3D scene inside a node (its keys are its own). */
const onCanvas = (element: Element | null) =>
  !element ||
  element === document.body ||
  (!!element.closest(".react-flow") && !element.closest(`${NODE} [role="application"]`));

const typing = (element: Element | null) =>
  element instanceof HTMLElement &&
  (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName));

/** How many frames to wait for a node panned to to be rendered before giving up. */
const RENDER_FRAMES = 60;

export function KeyboardWiring() {
  const store = useDocumentStore();
  const flow = useReactFlow();
  const [connecting, setConnecting] = useState<string | null>(null);
  const returnTo = useRef<string | null>(null);

  useEffect(() => {
    /** The node to connect: the focused one, else the only one selected. */
    const chosenNode = () => {
      const focused = document.activeElement?.closest<HTMLElement>(NODE)?.dataset.id;
      if (focused) return focused;
      const selected = store.getState().nodes.filter((node) => node.selected);
      return selected.length === 1 ? (selected[0]?.id ?? null) : null;
    };
    const openConnect = () => {
      const id = chosenNode();
      if (id) setConnecting(id);
      else notify.info("Select one node to connect it");
    };
    /** Focuses a node, first panning to it when it is not wholly in view. */
    const focusNode = (id: string) => {
      const selector = `${NODE}[data-id="${CSS.escape(id)}"]`;
      const element = document.querySelector<HTMLElement>(selector);
      const pane = document.querySelector(".react-flow")?.getBoundingClientRect();
      const box = element?.getBoundingClientRect();
      const inView =
        box &&
        pane &&
        box.left >= pane.left &&
        box.top >= pane.top &&
        box.right <= pane.right &&
        box.bottom <= pane.bottom;
      if (element && inView) return element.focus({ preventScroll: true });
      const internal = flow.getInternalNode(id);
      if (!internal) return;
      const { x, y } = internal.internals.positionAbsolute;
      const { width = 0, height = 0 } = internal.measured;
      void flow.setCenter(x + width / 2, y + height / 2, { zoom: flow.getZoom() });
      // Off-screen nodes are not rendered (onlyRenderVisibleElements): wait for it to appear.
      const whenRendered = (frames: number) => {
        const shown = document.querySelector<HTMLElement>(selector);
        if (shown) shown.focus({ preventScroll: true });
        else if (frames < RENDER_FRAMES) requestAnimationFrame(() => whenRendered(frames + 1));
      };
      requestAnimationFrame(() => whenRendered(0));
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const active = document.activeElement;
      const node = active instanceof HTMLElement && active.matches(NODE) ? active : null;
      if (node && event.key === "Tab" && !event.ctrlKey && !event.altKey && !event.metaKey) {
        const ids = store.getState().nodes.map((each) => each.id);
        const next = ids[ids.indexOf(node.dataset.id ?? "") + (event.shiftKey ? -1 : 1)];
        if (!next) return; // past the last node: on to the rest of the page
        event.preventDefault();
        focusNode(next);
      } else if (node && event.key === "Enter") {
        const field = node.querySelector<HTMLElement>(FIELD);
        if (!field) return;
        event.preventDefault();
        field.focus();
      } else if (event.key === "Escape" && typing(active)) {
        const owner = active?.closest<HTMLElement>(NODE);
        if (!owner) return;
        event.preventDefault();
        owner.focus();
      } else if (
        event.key.toLowerCase() === "c" &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !event.defaultPrevented &&
        !typing(active) &&
        onCanvas(active) &&
        !document.querySelector("dialog[open]")
      ) {
        event.preventDefault();
        openConnect();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    window.addEventListener(CONNECT_EVENT, openConnect);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      window.removeEventListener(CONNECT_EVENT, openConnect);
    };
  }, [store, flow]);

  // Once the dialog is gone, back to its node, so Tab and C go on from where they were.
  useEffect(() => {
    const id = returnTo.current;
    if (connecting || !id) return;
    returnTo.current = null;
    document.querySelector<HTMLElement>(`${NODE}[data-id="${CSS.escape(id)}"]`)?.focus();
  }, [connecting]);

  if (!connecting) return null;
  const close = () => {
    returnTo.current = connecting;
    setConnecting(null);
  };
  return <ConnectDialog nodeId={connecting} onClose={close} />;
}
