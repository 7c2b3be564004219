/**
 * Finds the ffmpeg this server may run: FFMPEG_PATH, else the static binary of the
 * `@ffmpeg-installer/ffmpeg` package when it is installed, else `ffmpeg` on PATH.
 */
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";

/** FFMPEG_PATH's value that turns local ffmpeg work off (merges go to a provider). */
export const FFMPEG_OFF = "off";

/** An existing file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The npm package's binary for this platform, when the package is installed. */
function packagedFfmpeg(): string | null {
  try {
    // The package is CommonJS and throws on platforms it has no binary for.
    const found = createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path?: string };
    return found.path && isExecutableFile(found.path) ? found.path : null;
  } catch {
    return null;
  }
}

function onPath(pathVariable: string | undefined): string | null {
  for (const dir of (pathVariable ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "ffmpeg");
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/**
 * The ffmpeg binary to use, or null for none. `setting` is FFMPEG_PATH as configured: a
 * path (checked when the configuration was read), "off", or null to look for one.
 */
export function locateFfmpeg(
  setting: string | null,
  pathVariable: string | undefined = process.env.PATH,
): string | null {
  if (setting === FFMPEG_OFF) return null;
  if (setting) return setting;
  return packagedFfmpeg() ?? onPath(pathVariable);
}
