import { loadConfig } from "../env.ts";
import { createBackup } from "../ops/backup/backup.ts";
import { exitOnProblem, parseArgs } from "../ops/backup/cli.ts";
import { stdoutPrinter } from "../ops/backup/printer.ts";
import { readEnvFile } from "./startup.ts";

// npm run backup -- [--out <folder>]: the configured database and media into one folder.
async function main() {
  const { values } = parseArgs(process.argv.slice(2), { values: ["out"], flags: [] });
  readEnvFile();
  const config = loadConfig();
  await createBackup(config, { ...(values.out ? { out: values.out } : {}), print: stdoutPrinter });
}

main().catch(exitOnProblem);
