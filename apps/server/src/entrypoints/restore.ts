import { loadConfig } from "../env.ts";
import { exitOnProblem, parseArgs } from "../ops/backup/cli.ts";
import { BackupError } from "../ops/backup/errors.ts";
import { stdoutPrinter } from "../ops/backup/printer.ts";
import { restoreBackup } from "../ops/backup/restore.ts";
import { readEnvFile } from "./startup.ts";

// npm run restore -- <backup folder> [--force]: into the configured DATA_DIR / DATABASE_URL.
async function main() {
  const { flags, positional } = parseArgs(process.argv.slice(2), { values: [], flags: ["force"] });
  const [from, ...extra] = positional;
  if (!from || extra.length > 0)
    throw new BackupError("Usage: npm run restore -- <backup folder> [--force]");
  readEnvFile();
  const config = loadConfig();
  await restoreBackup(config, { from, force: flags.has("force"), print: stdoutPrinter });
}

main().catch(exitOnProblem);
