import type PgBoss from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Config } from "../env.ts";
import { moduleLogger } from "../log.ts";
import { createProviders, type ProviderRegistry } from "../providers/registry.ts";
import { createSafeFetcher, type SafeFetcher } from "../providers/safe-fetch.ts";
import type { QueueWakeHub } from "../realtime/events.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { startBoss, stopBoss } from "./boss.ts";
import { createEngine, type GenerationEngine } from "./engine.ts";

export interface Generation {
  engine: GenerationEngine;
  providers: ProviderRegistry;
  boss: PgBoss;
  fetcher: SafeFetcher;
  stop(): Promise<void>;
}

/** Starts the job queue, the providers the configuration allows and the engine on top. */
export async function openGeneration(deps: {
  config: Config;
  database: Database;
  store: BlobStore;
  connectionString: string | null;
  wakes: QueueWakeHub;
}): Promise<Generation> {
  const { config, database, store } = deps;
  const log = moduleLogger("jobs");
  const boss = await startBoss(database, {
    connectionString: deps.connectionString,
    onError: (error) => log.error({ err: error }, "job queue error"),
  });
  const fetcher = createSafeFetcher({ allowHosts: config.generation.outboundAllowHosts });
  const providers = createProviders(config, { store, fetcher });
  const engine = await createEngine({
    db: database.db,
    boss,
    providers,
    sink: { db: database.db, store, fetcher, publicUrl: config.publicUrl },
    publicUrl: config.publicUrl,
    webhooks: config.publicUrlSet,
    staleAfterMs: config.generation.staleAfterMs,
    wakes: deps.wakes,
    log,
  });
  return {
    engine,
    providers,
    boss,
    fetcher,
    async stop() {
      await engine.stop();
      providers.close();
      await stopBoss(boss);
      await fetcher.close();
    },
  };
}
