import { withSizeHint } from "../document/size-hints.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNode } from "../document/types.ts";

type Placement = typeof import("./placement.ts");

let loading: Promise<Placement> | undefined;

/** The free-spot search, loaded once on first use (or ahead of it, when a search opens). */
export function loadPlacement(): Promise<Placement> {
  loading ??= import("./placement.ts").catch((error: unknown) => {
    loading = undefined; // tried again next time
    throw error;
  });
  return loading;
}

/**
 * Adds a node of `type` asked for at `at` (its top-left in flow units, or its centre when
 * `centred`): at the nearest spot clear of other nodes once the search has loaded; should it
 * fail to load, where it was asked for.
 */
export async function addNodeNear(
  store: DocumentStore,
  type: string,
  at: { x: number; y: number },
  centred = false,
): Promise<CanvasNode> {
  const placement = await loadPlacement().catch(() => null);
  if (placement) return placement.placeNode(store, type, at, centred, withSizeHint);
  return store.getState().addNode(type, at);
}
