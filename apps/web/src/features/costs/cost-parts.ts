import { lazyPart } from "../../ui/lazy-part.tsx";

/*
 * Cost estimates and the cost question load after the first paint (DESIGN §7): one chunk for
 * the node estimate, Run all's total and the dialog, fetched through one loader.
 */
const parts = () => import("./CostParts.tsx");

export const NodeCost = lazyPart(() => parts().then((module) => module.NodeCost));
export const RunEstimate = lazyPart(() => parts().then((module) => module.RunEstimate));
export const CostDialog = lazyPart(() => parts().then((module) => module.CostDialog));
