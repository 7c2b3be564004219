import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { groupOutputMedia, MediaPreview } from "../src/features/nodes/viewers/MediaPreview.tsx";
import {
  aspectRatioText,
  describeMeta,
  durationText,
  fileNameOf,
  formatOf,
  isCrossOrigin,
  peaksOf,
} from "../src/features/nodes/viewers/media-meta.ts";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("media metadata helpers", () => {
  it("reads the format from a content type, a data URL or the extension", () => {
    expect(formatOf("https://cdn.example.com/a/b/out.PNG?sig=1#x")).toBe("PNG");
    expect(formatOf("https://x.test/clip.mp4")).toBe("MP4");
    expect(formatOf("https://x.test/photo.jpg")).toBe("JPEG");
    expect(formatOf("data:image/webp;base64,AAAA")).toBe("WEBP");
    expect(formatOf("data:model/gltf-binary;base64,AAAA")).toBe("GLB");
    expect(formatOf("data:audio/x-flac;base64,AAAA")).toBe("FLAC");
    expect(formatOf("/api/media/abc", "audio/mpeg; charset=binary")).toBe("MP3");
    expect(formatOf("/api/media/abc")).toBeNull();
    expect(formatOf("https://x.test/v1.2/file")).toBeNull();
  });

  it("writes aspect ratios exactly, within a tolerance, or as a decimal", () => {
    expect(aspectRatioText(1920, 1080)).toBe("16:9");
    expect(aspectRatioText(1080, 1920)).toBe("9:16");
    expect(aspectRatioText(1024, 1024)).toBe("1:1");
    expect(aspectRatioText(1366, 768)).toBe("16:9");
    expect(aspectRatioText(1920, 1081)).toBe("16:9");
    expect(aspectRatioText(1500, 1000)).toBe("3:2");
    expect(aspectRatioText(1000, 3)).toBe("333.33:1");
    expect(aspectRatioText(0, 100)).toBeNull();
    expect(aspectRatioText(Number.NaN, 100)).toBeNull();
  });

  it("writes durations as m:ss or h:mm:ss", () => {
    expect(durationText(0)).toBe("0:00");
    expect(durationText(5.2)).toBe("0:05");
    expect(durationText(65)).toBe("1:05");
    expect(durationText(3725)).toBe("1:02:05");
    expect(durationText(Number.POSITIVE_INFINITY)).toBeNull();
    expect(durationText(undefined)).toBeNull();
  });

  it("joins metadata, names downloads, spots cross-origin URLs and downsamples peaks", () => {
    expect(
      describeMeta({ width: 1920, height: 1080, aspectRatio: "16:9", duration: 12, format: "MP4" }),
    ).toBe("1920×1080 · 16:9 · 0:12 · MP4");
    expect(describeMeta({})).toBe("");
    expect(fileNameOf("https://x.test/a/my%20clip.mp4?t=1")).toBe("my clip.mp4");
    expect(fileNameOf("data:image/png;base64,AAAA", "image")).toBe("image.png");
    expect(isCrossOrigin("https://other.test/a.mp3", "http://localhost:3000")).toBe(true);
    expect(isCrossOrigin("/api/media/a.mp3", "http://localhost:3000")).toBe(false);
    expect(isCrossOrigin("data:audio/wav;base64,AAAA", "http://localhost:3000")).toBe(false);
    expect(peaksOf([0, 0.5, -1, 0.25, 0.1, -0.2], 3)).toEqual([0.5, 1, 0.2]);
    expect(peaksOf([], 2)).toEqual([0, 0]);
  });
});

describe("grouping a node's outputs", () => {
  it("uses the snapshot as a 3D model's still and the captured frame as a video poster", () => {
    expect(
      groupOutputMedia({
        glbUrl: "https://x.test/m.glb",
        glbPbrUrl: "https://x.test/m-pbr.glb",
        snapshot: "https://x.test/m.png",
        videoUrl: "https://x.test/v.mp4",
        capturedFrame: "https://x.test/f.jpg",
        images: ["https://x.test/1.png", "https://x.test/2.png", "https://x.test/1.png"],
        isolatedAudio: { url: "https://x.test/a.wav" },
      }),
    ).toEqual([
      { kind: "video", urls: ["https://x.test/v.mp4"], still: "https://x.test/f.jpg" },
      { kind: "image", urls: ["https://x.test/1.png", "https://x.test/2.png"] },
      {
        kind: "model",
        urls: ["https://x.test/m.glb", "https://x.test/m-pbr.glb"],
        still: "https://x.test/m.png",
      },
      { kind: "audio", urls: ["https://x.test/a.wav"] },
    ]);
    expect(groupOutputMedia({ snapshot: "https://x.test/s.png" })).toEqual([
      { kind: "image", urls: ["https://x.test/s.png"] },
    ]);
    expect(groupOutputMedia({ meshPreview: "https://x.test/p.glb" })[0]?.kind).toBe("model");
  });
});

describe("MediaPreview", () => {
  it("says so when there is no output", () => {
    render(<MediaPreview outputs={undefined} />);
    expect(screen.getByText("No output yet")).toBeTruthy();
  });

  it("shows an image with its format, a larger view and a download link", async () => {
    render(<MediaPreview outputs={{ imageUrl: "https://x.test/out.png" }} />);
    const image = await screen.findByAltText("Output");
    expect(image.getAttribute("loading")).toBe("lazy");
    expect(screen.getByText("PNG")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Download" }).getAttribute("download")).toBe("out.png");
    fireEvent.click(screen.getByTitle("Open larger view"));
    expect(await screen.findByAltText("Output, larger view")).toBeTruthy();
  });

  it("shows 'Failed to load image' when the image fails", async () => {
    render(<MediaPreview outputs={{ image: "https://x.test/broken.png" }} />);
    fireEvent.error(await screen.findByAltText("Output"));
    expect(await screen.findByText("Failed to load image")).toBeTruthy();
    expect(screen.queryByAltText("Output")).toBeNull();
  });

  it("switches between several results of one kind", async () => {
    render(<MediaPreview outputs={{ images: ["https://x.test/1.png", "https://x.test/2.png"] }} />);
    expect((await screen.findByAltText("Output")).getAttribute("src")).toBe("https://x.test/1.png");
    fireEvent.click(screen.getByRole("button", { name: "Result 2 of 2" }));
    expect((await screen.findByAltText("Output")).getAttribute("src")).toBe("https://x.test/2.png");
  });

  it("shows a video player with the captured frame as poster", async () => {
    const { container } = render(
      <MediaPreview
        outputs={{ generatedVideo: "https://x.test/v.mp4", capturedFrame: "https://x.test/f.jpg" }}
      />,
    );
    await screen.findByText("MP4");
    const video = container.querySelector("video");
    expect(video?.getAttribute("poster")).toBe("https://x.test/f.jpg");
    expect(video?.getAttribute("preload")).toBe("metadata");
    expect(video?.hasAttribute("controls")).toBe(true);
  });

  it("shows an audio player, and the CORS message when a cross-origin fetch is blocked", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    const { container } = render(
      <MediaPreview outputs={{ audioUrl: "https://other.test/a.mp3" }} />,
    );
    expect(
      await screen.findByText("External service URL - metadata unavailable due to CORS"),
    ).toBeTruthy();
    expect(container.querySelector("audio")?.getAttribute("preload")).toBe("metadata");
  });

  it("shows 'Failed to load audio' when the audio fails", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response("", { status: 404 })));
    render(<MediaPreview outputs={{ audio: "/api/media/a.wav" }} />);
    expect(await screen.findByText("Failed to load audio")).toBeTruthy();
  });

  it("shows a 3D model's snapshot until 'View in 3D', then reports when it cannot be read", async () => {
    render(
      <MediaPreview
        outputs={{ modelUrl: "https://x.test/m.glb", snapshot: "https://x.test/m.png" }}
      />,
    );
    expect((await screen.findByAltText("3D model snapshot")).getAttribute("src")).toBe(
      "https://x.test/m.png",
    );
    expect(screen.getByText("GLB")).toBeTruthy();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole("button", { name: "View in 3D" }));
    // happy-dom has no WebGL: the viewer says so and keeps the snapshot.
    expect(await screen.findByText("3D model metadata not available")).toBeTruthy();
    expect(screen.getByAltText("3D model snapshot")).toBeTruthy();
  });

  it("shows text output as plain text", () => {
    render(<MediaPreview outputs={{ text: "<b>hello</b> ... (truncated)" }} />);
    expect(screen.getByText("<b>hello</b> ... (truncated)").tagName).toBe("P");
  });
});
