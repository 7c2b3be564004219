import type { NodeEstimate, TotalEstimate } from "@atelier/core";
import { create } from "zustand";

/**
 * Cost estimates of the open workflow (estimates.ts keeps them current): each node's that
 * runs on a provider, and Run all's total. Components read one entry each.
 */
export const useEstimates = create<{
  byNode: Readonly<Record<string, NodeEstimate>>;
  /** Run all: the nodes that would run (not those unchanged since they completed). */
  total: TotalEstimate | null;
  /** The providers this session's runs may use (a node may choose among them). */
  configured: readonly string[];
}>(() => ({ byNode: {}, total: null, configured: [] }));
