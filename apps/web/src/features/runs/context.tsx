import { createContext, type ReactNode, useContext } from "react";
import type { Runner } from "./runner.ts";

const RunnerContext = createContext<Runner | null>(null);

export function RunnerProvider({ value, children }: { value: Runner; children: ReactNode }) {
  return <RunnerContext.Provider value={value}>{children}</RunnerContext.Provider>;
}

export function useRunner(): Runner {
  const value = useContext(RunnerContext);
  if (!value) throw new Error("useRunner needs a RunnerProvider");
  return value;
}
