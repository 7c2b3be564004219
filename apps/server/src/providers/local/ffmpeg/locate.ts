/**
 * Finds the ffmpeg this server may run: FFMPEG_PATH, else `ffmpeg` on PATH (Debian's
 * `apt-get install ffmpeg`). None bundled: without one, merges go to fal or the stand-in.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** FFMPEG_PATH's value that turns local ffmpeg work off (merges go to a provider). */
export const FFMPEG_OFF = "off";

/** What to do when the server has no ffmpeg it can run; the message is shown to the user. */
export const FFMPEG_MISSING =
  "ffmpeg is not installed on the server — install it (apt-get install ffmpeg) or set FFMPEG_PATH";

/** An existing file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
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
 * path (checked when the configuration was read), "off", or null to look on PATH.
 */
export function locateFfmpeg(
  setting: string | null,
  pathVariable: string | undefined = process.env.PATH,
): string | null {
  if (setting === FFMPEG_OFF) return null;
  if (setting) return setting;
  return onPath(pathVariable);
}
