import { createContext, type ReactNode, useContext } from "react";
import type { Persistence } from "./persistence.ts";

const PersistenceContext = createContext<Persistence | null>(null);

export function PersistenceProvider({
  value,
  children,
}: {
  value: Persistence;
  children: ReactNode;
}) {
  return <PersistenceContext.Provider value={value}>{children}</PersistenceContext.Provider>;
}

/** The editor's persistence, or null on pages without one (a saved version's). */
export const usePersistenceIfAny = (): Persistence | null => useContext(PersistenceContext);

export function usePersistence(): Persistence {
  const value = usePersistenceIfAny();
  if (!value) throw new Error("usePersistence needs a PersistenceProvider");
  return value;
}
