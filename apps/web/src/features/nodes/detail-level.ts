import { createContext } from "react";

/** Below this zoom a node is drawn as a plain box (DESIGN §7, performance.md). */
export const DETAIL_ZOOM = 0.5;

export const zoomedOut = (state: { transform: [number, number, number] }) =>
  state.transform[2] < DETAIL_ZOOM;

/**
 * True while zoomed out below DETAIL_ZOOM. The canvas subscribes to the zoom once and
 * provides it: a subscription in every node would run thousands of selectors on each drag
 * move (React Flow's store changes with every move).
 */
export const ZoomedOut = createContext(false);
