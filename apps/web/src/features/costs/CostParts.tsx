import { NodeCost } from "./NodeCost.tsx";
import { RunEstimate } from "./RunEstimate.tsx";

/** Which part: a node's estimate, or (no props) Run all's total. */
export type CostPartProps = { id: string; type: string } | Record<string, never>;

/** The cost parts of the editor, one lazy chunk (cost-parts.ts): which one by its props. */
export function CostPart(props: CostPartProps) {
  if ("id" in props) return <NodeCost id={props.id} type={props.type} />;
  return <RunEstimate />;
}
