import { join } from "node:path";
import { LIMITS } from "@atelier/core";
import { type Auth, createAuth, promoteAdmins } from "./auth/auth.ts";
import { type Database, openDatabase } from "./db/client.ts";
import type { Config } from "./env.ts";
import { EventHub } from "./realtime/events.ts";
import type { BlobStore } from "./storage/blob-store.ts";
import { createFsStore } from "./storage/fs-store.ts";
import { createS3Store } from "./storage/s3-store.ts";

/** Everything a request handler may reach, opened once per process. */
export interface AppContext {
  config: Config;
  database: Database;
  store: BlobStore;
  auth: Auth;
  events: EventHub;
  close(): Promise<void>;
}

export interface ContextOverrides {
  database?: Database;
  store?: BlobStore;
}

export async function openStore(config: Config): Promise<BlobStore> {
  if (config.s3) return createS3Store(config.s3);
  return createFsStore(join(config.dataDir, "media"), LIMITS.upload.bucket);
}

export async function createContext(
  config: Config,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const database =
    overrides.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, "db") }));
  const store = overrides.store ?? (await openStore(config));
  await promoteAdmins(database.db, config.adminEmails);
  const events = new EventHub(database);
  await events.start();
  const auth = createAuth(config, database.db);
  return {
    config,
    database,
    store,
    auth,
    events,
    async close() {
      await events.close();
      await database.close();
    },
  };
}
