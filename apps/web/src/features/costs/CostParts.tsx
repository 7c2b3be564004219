/** The cost parts of the editor, one lazy chunk (cost-parts.ts). */
export { CostDialog } from "./CostDialog.tsx";
export { NodeCost } from "./NodeCost.tsx";
export { RunEstimate } from "./RunEstimate.tsx";
