// `npm run backup -- [--out <folder>]`: see apps/server/src/entrypoints/backup.ts.
import { runServerCommand } from "./server-command.mjs";

await runServerCommand("backup");
