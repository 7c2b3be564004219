import { createElement } from "react";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { useEstimates } from "./estimates-store.ts";

/*
 * Cost estimates load after the first paint (DESIGN §7): one chunk and one lazy part for the
 * node estimate (`id`, `type`) and Run all's total (no node). The cost question's dialog is
 * a part of its own (Editor.tsx).
 */
export const CostPart = lazyPart(() => import("./CostParts.tsx").then((module) => module.CostPart));

/**
 * Run all's total, fetched once there is one to show (RunEstimate shows nothing before). The
 * total comes from the node estimates (NodeCost), so their chunk is here by then.
 */
export function RunAllCost() {
  const total = useEstimates((state) => state.total);
  return total?.usd || total?.unknown ? createElement(CostPart) : null;
}
