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

export function usePersistence(): Persistence {
  const value = useContext(PersistenceContext);
  if (!value) throw new Error("usePersistence needs a PersistenceProvider");
  return value;
}
