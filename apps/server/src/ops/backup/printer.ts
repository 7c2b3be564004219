/** Where a backup or restore reports its progress: stdout for the CLI, a list in tests. */
export type Printer = (line: string) => void;

/** The command line's printer: one progress line at a time on stdout. */
export const stdoutPrinter: Printer = (line) => {
  process.stdout.write(`${line}\n`);
};

/** 1234567 → "1.2 MB": sizes in progress lines and summaries. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
