import { ConfigError } from "../../env.ts";
import { BackupError } from "./errors.ts";

/** `--name value` and `--flag` options, and the positional arguments, of a command line. */
export function parseArgs(
  argv: readonly string[],
  known: { values: readonly string[]; flags: readonly string[] },
): { values: Record<string, string>; flags: Set<string>; positional: string[] } {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (known.flags.includes(name)) flags.add(name);
    else if (known.values.includes(name)) {
      const value = inline ?? argv[++index];
      if (!value) throw new BackupError(`--${name} needs a value`);
      values[name] = value;
    } else throw new BackupError(`Unknown option --${name}`);
  }
  return { values, flags, positional };
}

/**
 * Ends a command that failed on something the operator can fix with its one line (exit 78
 * for a setting, 1 otherwise); anything else is thrown on, stack and all.
 */
export function exitOnProblem(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof BackupError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
