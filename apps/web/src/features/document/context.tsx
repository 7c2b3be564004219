import { createContext, type ReactNode, useContext } from "react";
import { useStore } from "zustand";
import type { DocumentActions, DocumentState, DocumentStore } from "./store.ts";

const DocumentContext = createContext<DocumentStore | null>(null);

export function DocumentProvider({
  store,
  children,
}: {
  store: DocumentStore;
  children: ReactNode;
}) {
  return <DocumentContext.Provider value={store}>{children}</DocumentContext.Provider>;
}

export function useDocumentStore(): DocumentStore {
  const store = useContext(DocumentContext);
  if (!store) throw new Error("useDocumentStore needs a DocumentProvider");
  return store;
}

/** Reads one slice of the document; components re-render only when that slice changes. */
export function useDocument<T>(selector: (state: DocumentState & DocumentActions) => T): T {
  return useStore(useDocumentStore(), selector);
}
