// Types of start.mjs for the tests that import it (apps/server/test/start.test.ts).
export interface BuildPart {
  label: string;
  /** The root package.json script that builds this part. */
  script: string;
  /** The package that builds it (a dev dependency) and the package.json it resolves from. */
  tool: { from: string; name: string };
  /** The file the build writes last, relative to the checkout; its time is the build's. */
  output: string;
  /** Files and folders it is built from, relative to the checkout. */
  sources: string[];
}

export const PARTS: { web: BuildPart; server: BuildPart };

export function buildReason(root: string, part: BuildPart): string | null;
