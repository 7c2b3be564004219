import {
  formatUsd,
  getNodeDefinition,
  PROVIDER_PARAM,
  providerName,
  providersOf,
} from "@atelier/core";
import { memo, useEffect } from "react";
import { useDocumentStore } from "../document/context.tsx";
import { followEstimates } from "./estimates.ts";
import { useEstimates } from "./estimates-store.ts";

/**
 * What running this node is expected to cost, before it runs: the published price of the
 * endpoint its parameters and wires pick, "Free" on this server's own provider (named when it
 * is the operator's ComfyUI), or "Cost unknown" where no price is published. Where several
 * configured providers can run the node, a choice of which (Auto: the operator's order). Reads this node's estimate only.
 */
export const NodeCost = memo(function NodeCost({ id, type }: { id: string; type: string }) {
  const documents = useDocumentStore();
  useEffect(() => followEstimates(documents), [documents]);
  const estimate = useEstimates((state) => state.byNode[id]);
  const configured = useEstimates((state) => state.configured);
  // Only a provider's run is paid: work done here says nothing.
  if (!estimate || getNodeDefinition(type)?.run.kind !== "provider") return null;
  const choices = providersOf(type).filter((provider) => configured.includes(provider));
  const ownGpu = estimate.provider === "comfyui";
  const title =
    estimate.provider === "local"
      ? "Runs on this server: no provider is paid"
      : estimate.down
        ? `${providerName(estimate.provider)} could not be reached at its last check: a run may fail`
        : ownGpu
          ? `Runs on this server's ComfyUI (${estimate.endpoint}): no provider is paid`
          : estimate.usd === null
            ? `No published price for ${estimate.endpoint} (${estimate.provider})`
            : `${estimate.provider}'s published price for ${estimate.endpoint}`;
  const choice =
    choices.length > 1 ? (
      <select
        className="node-provider-choice"
        aria-label="Provider"
        value={estimate.chosen ?? ""}
        onChange={(event) => documents.getState().setParam(id, PROVIDER_PARAM, event.target.value)}
      >
        <option value="">Auto</option>
        {choices.map((provider) => (
          <option key={provider} value={provider}>
            {providerName(provider)}
          </option>
        ))}
      </select>
    ) : null;
  return (
    <>
      {choice}
      {estimate.lacking ? (
        <span className="node-lacking" role="note" title={estimate.lacking}>
          {estimate.lacking}
        </span>
      ) : null}
      <span className="node-cost" title={title} data-testid="node-cost">
        {ownGpu || estimate.down ? (
          <span data-testid="node-provider">
            {providerName(estimate.provider)}
            {estimate.down ? " (down)" : ""} ·{" "}
          </span>
        ) : null}
        {estimate.usd === null || estimate.usd === 0
          ? formatUsd(estimate.usd)
          : `Est. ${formatUsd(estimate.usd)}`}
      </span>
    </>
  );
});
