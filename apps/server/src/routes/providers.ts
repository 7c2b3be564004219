import {
  getNodeDefinition,
  PROVIDER_RUNS,
  type ProviderReport,
  type ProvidersAnswer,
  providerName,
  providersOf,
} from "@atelier/core";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.ts";
import { requireSession } from "../http/session.ts";

const displayName = (type: string) => getNodeDefinition(type)?.displayName ?? type;

/**
 * The Providers page: each configured provider, its health where a free check exists
 * (ComfyUI's /object_info; a key-based API only tells on a paid call), and the nodes it can
 * run here — for ComfyUI, whether each instance has their models and nodes.
 */
export async function providerRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/api/providers", async (request): Promise<ProvidersAnswer> => {
    await requireSession(ctx.auth, request);
    const registry = (await ctx.generation()).providers;
    const ids = [...registry.configured].filter((id) => id !== "local").sort();
    const providers = await Promise.all(
      ids.map(async (id): Promise<ProviderReport> => {
        const types = Object.keys(PROVIDER_RUNS).filter((type) =>
          providersOf(type).includes(id as never),
        );
        const capabilities = await registry.get(id)?.capabilities?.();
        if (!capabilities)
          return {
            id,
            name: providerName(id),
            state: "unchecked",
            detail: "Checked when a job runs (a check would be a paid call)",
            instances: [],
            nodes: types.map((type) => ({
              type,
              displayName: displayName(type),
              runnable: true,
              missing: null,
            })),
          };
        const down = capabilities.instances.every((instance) => !instance.ok);
        const lacking = capabilities.instances.filter((instance) => !instance.ok).length;
        return {
          id,
          name: providerName(id),
          state: down ? "down" : "ok",
          detail: down
            ? (capabilities.instances[0]?.error ?? null)
            : lacking > 0
              ? `${lacking} of ${capabilities.instances.length} instances cannot be reached`
              : null,
          instances: capabilities.instances,
          nodes: Object.entries(capabilities.nodes).map(([type, node]) => ({
            type,
            displayName: displayName(type),
            ...node,
          })),
        };
      }),
    );
    return { providers, order: [...registry.order] };
  });
}
