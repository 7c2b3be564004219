import { priceOf } from "./prices.ts";
import { resolveRunTarget } from "./run-target.ts";
import type { NodeDefinition } from "./types.ts";

/** What running one node is expected to cost, and who would run it. */
export interface NodeEstimate {
  /** US dollars; null when the endpoint has no published price. */
  usd: number | null;
  provider: string;
  endpoint: string;
  /** The provider was unreachable at its last check. */
  down?: boolean;
  /** The provider the node itself chose (its `provider` parameter), if any. */
  chosen?: string;
  /** Why the provider cannot run this node here, known before a run. */
  lacking?: string;
}

/** Where this session's runs may go: providers configured (and allowed) and local work. */
export interface RunProviders {
  configured: ReadonlySet<string>;
  doneLocally: ReadonlySet<string>;
  /** The operator's preference among providers able to run the same node (PROVIDER_ORDER). */
  order?: readonly string[];
  /** Providers whose last check failed: a node they would run says so. */
  down?: ReadonlySet<string>;
  /** Per provider, node types it cannot run here, with why (ComfyUI lacking a model). */
  lacking?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The estimate of one node run, or null for a node that runs nothing. */
export function estimateNode(
  definition: NodeDefinition,
  connected: ReadonlySet<string>,
  params: Record<string, unknown>,
  providers: RunProviders,
): NodeEstimate | null {
  const target = resolveRunTarget(
    definition,
    connected,
    params,
    providers.configured,
    providers.doneLocally,
    providers.order,
  );
  if (target.kind === "none") return null;
  const provider = target.kind === "provider" ? target.provider : "local";
  const estimate: NodeEstimate = {
    usd: priceOf(target.endpoint, params),
    provider,
    endpoint: target.endpoint,
  };
  if (providers.down?.has(provider)) estimate.down = true;
  const lacking = providers.lacking?.[provider]?.[definition.type];
  if (lacking) estimate.lacking = lacking;
  return estimate;
}

/** The sum of several estimates: the known part, and how many are unknown. */
export interface TotalEstimate {
  usd: number;
  unknown: number;
}

export function totalOf(estimates: readonly (NodeEstimate | null)[]): TotalEstimate {
  let usd = 0;
  let unknown = 0;
  for (const estimate of estimates) {
    if (!estimate) continue;
    if (estimate.usd === null) unknown++;
    else usd += estimate.usd;
  }
  return { usd: Math.round(usd * 10_000) / 10_000, unknown };
}
