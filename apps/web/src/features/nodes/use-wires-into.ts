import { useMemo, useSyncExternalStore } from "react";
import { useDocumentStore } from "../document/context.tsx";
import { wiredInto } from "./wired-value.ts";

const unsubscribed = () => () => undefined;

/**
 * Node `id`'s wires (wiredInto), followed only while `live`. A zoomed-out box shows no
 * fields, so it holds no subscription: a drag changes the document on every move, and
 * thousands of boxes each checking their wires made every frame cost a few milliseconds
 * more per thousand nodes. Live, a change costs one comparison of the edges array.
 */
export function useWiresInto(id: string, firstPort: string | undefined, live: boolean): string {
  const documents = useDocumentStore();
  const subscribe = live ? documents.subscribe : unsubscribed;
  const edges = useSyncExternalStore(subscribe, () => documents.getState().edges);
  return useMemo(() => (live ? wiredInto(edges, id, firstPort) : ""), [live, edges, id, firstPort]);
}
