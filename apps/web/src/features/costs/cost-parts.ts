import { lazyPart } from "../../ui/lazy-part.tsx";

/*
 * Cost estimates and the cost question load after the first paint (DESIGN §7): one chunk and
 * one lazy part for the node estimate (`id`, `type`), Run all's total (no node) and the
 * dialog (`dialog`).
 */
export const CostPart = lazyPart(() => import("./CostParts.tsx").then((module) => module.CostPart));
