import { COST_MESSAGES, formatUsd, type TotalEstimate } from "@atelier/core";
import type { DocumentStore } from "../document/store.ts";
import { usePreferences } from "../preferences/store.ts";
import { useCostPrompt } from "./cost-prompt-store.ts";
import { estimateRun } from "./estimates.ts";

/**
 * Before a run of several nodes (Run all, Run to here, an app run): when its estimate is
 * above the user's threshold (Preferences), asks Run / Cancel. True when it may start.
 */
export async function confirmRunCost(total: TotalEstimate | null): Promise<boolean> {
  if (!total || total.usd <= usePreferences.getState().confirmRunAboveUsd) return true;
  const message = COST_MESSAGES.confirmRun(formatUsd(total.usd), total.unknown);
  const run = await new Promise<boolean>((answer) =>
    useCostPrompt.setState({ pending: { message, answer } }),
  );
  useCostPrompt.setState({ pending: null });
  return run;
}

/** Run all (no target) or Run to here: its estimate, asked about above the threshold. */
export async function confirmRunAt(
  documents: DocumentStore,
  target: string | null,
): Promise<boolean> {
  return confirmRunCost(await estimateRun(documents, target));
}
