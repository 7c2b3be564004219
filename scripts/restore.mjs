// `npm run restore -- <backup folder> [--force]`: see apps/server/src/entrypoints/restore.ts.
import { runServerCommand } from "./server-command.mjs";

await runServerCommand("restore");
