import { useStoreApi } from "@xyflow/react";
import { useEffect } from "react";

/**
 * React Flow (12.12.1) mounts its selection listener when `onSelectionChangeHandlers` is
 * truthy, and the list starts as `[]`, so the listener is always there: on every change of
 * React Flow's store it walks every node and wire to collect the selection (5–20 ms per
 * change while a 3,000-node workflow opens) for listeners the editor does not have. The
 * editor uses neither `onSelectionChange` nor `useOnSelectionChange`; with the empty list
 * taken away, React Flow leaves the listener out. Adding either later needs this hook gone:
 * both read the list (`useOnSelectionChange` would throw on it).
 */
export function useNoSelectionListener(): void {
  const flow = useStoreApi();
  // A passive effect: it runs after the listener's own first effect, which reads the list.
  useEffect(() => {
    const handlers = flow.getState().onSelectionChangeHandlers;
    if (Array.isArray(handlers) && handlers.length === 0)
      flow.setState({ onSelectionChangeHandlers: undefined as unknown as [] });
  }, [flow]);
}
