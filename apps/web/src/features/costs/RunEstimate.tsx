import { formatUsd } from "@atelier/core";
import { useEstimates } from "./estimates-store.ts";

/** Run all's estimate: the nodes that would run, at their published prices. */
export function RunEstimate() {
  const total = useEstimates((state) => state.total);
  const unknown = total?.unknown ?? 0;
  const usd = total?.usd ?? 0;
  if (usd === 0 && unknown === 0) return null;
  const title =
    unknown > 0
      ? `${unknown} node${unknown === 1 ? " has" : "s have"} no published price`
      : "At the providers' published prices";
  return (
    <span className="run-estimate" title={title}>
      {" · "}
      {usd > 0 ? `Est. ${formatUsd(usd)}${unknown > 0 ? " + unknown" : ""}` : formatUsd(null)}
    </span>
  );
}
