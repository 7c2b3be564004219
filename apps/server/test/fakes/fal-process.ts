import { pathToFileURL } from "node:url";
import { startFakeFal } from "./fal-server.ts";

/**
 * The fake fal as a process, for the e2e suite's priced server: on FAKE_FAL_PORT with the
 * key FAKE_FAL_KEY; unscripted, so each job completes with its model's kind of file.
 */
async function main() {
  const fal = await startFakeFal({
    port: Number(process.env.FAKE_FAL_PORT),
    key: process.env.FAKE_FAL_KEY ?? "e2e-fal-key",
  });
  console.log(`fake fal on ${fal.url}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) void main();
