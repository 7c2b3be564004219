import { useMemo, useSyncExternalStore } from "react";
import { useDocumentStore } from "../document/context.tsx";
import { wiredInto } from "./wired-value.ts";

/**
 * Node `id`'s wires (wiredInto), for its card. Only cards follow them (a zoomed-out box
 * shows no fields): a drag changes the document on every move, and thousands of boxes each
 * checking their wires made every frame cost a few milliseconds more per thousand nodes.
 * A change costs a card one comparison of the edges array.
 */
export function useWiresInto(id: string, firstPort: string | undefined): string {
  const documents = useDocumentStore();
  const edges = useSyncExternalStore(documents.subscribe, () => documents.getState().edges);
  return useMemo(() => wiredInto(edges, id, firstPort), [edges, id, firstPort]);
}
