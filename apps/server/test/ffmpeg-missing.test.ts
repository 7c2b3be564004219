import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FFMPEG_MISSING, FFMPEG_OFF, locateFfmpeg } from "../src/providers/local/ffmpeg/locate.ts";
import { runFfmpegNode } from "../src/providers/local/ffmpeg/run-node.ts";
import { ProviderError } from "../src/providers/provider.ts";

// No ffmpeg is bundled: the server looks for one on PATH, and says how to get one when the
// binary it found cannot be run.

const dir = mkdtempSync(join(tmpdir(), "atelier-ffmpeg-path-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("finding ffmpeg", () => {
  it("takes FFMPEG_PATH, else the first executable ffmpeg on PATH, else none", () => {
    const fake = join(dir, "ffmpeg");
    writeFileSync(fake, "#!/bin/sh\n");
    chmodSync(fake, 0o755);
    expect(locateFfmpeg(null, `/nowhere:${dir}`)).toBe(fake);
    expect(locateFfmpeg("/opt/ffmpeg", `/nowhere:${dir}`)).toBe("/opt/ffmpeg");
    expect(locateFfmpeg(FFMPEG_OFF, dir)).toBeNull();
    expect(locateFfmpeg(null, "/nowhere")).toBeNull();
    expect(locateFfmpeg(null, "")).toBeNull();
  });

  it("skips a file named ffmpeg that is not executable", () => {
    const plain = mkdtempSync(join(dir, "plain-"));
    writeFileSync(join(plain, "ffmpeg"), "not a program");
    expect(locateFfmpeg(null, plain)).toBeNull();
  });
});

describe("a merge whose ffmpeg is gone", () => {
  it("fails with a message that says how to install one", async () => {
    const request = {
      nodeType: "merge-videos",
      inputs: { video1: "/api/media/file/a.webm", video2: "/api/media/file/b.webm" },
      params: {},
    };
    const error = await runFfmpegNode(
      request,
      async () => new Uint8Array([1, 2, 3]),
      join(dir, "gone", "ffmpeg"),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("fatal");
    expect((error as ProviderError).options.userMessage).toBe(FFMPEG_MISSING);
    expect(FFMPEG_MISSING).toBe(
      "ffmpeg is not installed on the server — install it (apt-get install ffmpeg) or set FFMPEG_PATH",
    );
  });
});
