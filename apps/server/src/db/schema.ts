/**
 * The database schema, identical on PGlite and PostgreSQL. Column names follow SPEC §3;
 * the four auth tables are Better Auth's. The tables live in ./schema/, one file per group;
 * this module re-exports them all, so drizzle-kit (drizzle.config.ts) and every importer
 * keep reading one file.
 */
import { account, apiTokens, invites, session, user, verification } from "./schema/auth.ts";
import { jobs, runNodes, runs, userQueues } from "./schema/jobs.ts";
import { usageCounters, userQuotas } from "./schema/operator.ts";
import { apps, shareLinks } from "./schema/sharing.ts";
import { workflowVersionChunks, workflowVersions } from "./schema/versions.ts";
import { folders, workflowChunks, workflowMediaManifest, workflows } from "./schema/workflows.ts";

export * from "./schema/auth.ts";
export * from "./schema/jobs.ts";
export * from "./schema/operator.ts";
export * from "./schema/sharing.ts";
export * from "./schema/versions.ts";
export * from "./schema/workflows.ts";

export const schema = {
  user,
  session,
  account,
  verification,
  folders,
  workflows,
  workflowChunks,
  workflowMediaManifest,
  jobs,
  runs,
  runNodes,
  userQueues,
  apiTokens,
  shareLinks,
  apps,
  usageCounters,
  userQuotas,
  invites,
  workflowVersions,
  workflowVersionChunks,
};
