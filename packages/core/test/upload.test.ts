import { describe, expect, it } from "vitest";
import { fileExtension, validateUpload } from "../src/index.ts";

const ALLOWED =
  "jpg, jpeg, png, gif, webp, svg, bmp, mp4, webm, ogg, mpeg, mpg, mov, avi, mp3, wav, m4a, flac, glb, gltf";

describe("validateUpload (SPEC §5)", () => {
  it.each([
    ["photo.jpg", "image/jpeg"],
    ["photo.JPEG", "image/jpeg"],
    ["icon.svg", "image/svg+xml"],
    ["scan.bmp", "image/bmp"],
    ["clip.mp4", "video/mp4"],
    ["clip.mov", "video/quicktime"],
    ["clip.avi", "video/x-msvideo"],
    ["clip.webm", "video/webm"],
    ["song.mp3", "audio/mpeg"],
    ["voice.wav", "audio/wav"],
    ["voice.m4a", "audio/mp4"],
    ["voice.flac", "audio/flac"],
    ["model.glb", "model/gltf-binary"],
    ["model.gltf", "model/gltf+json"],
    ["model.glb", "application/octet-stream"],
    ["model.glb", ""],
  ])("accepts %s as %j", (name, type) => {
    expect(validateUpload({ name, type, size: 1000 })).toBeNull();
  });

  it("refuses files over 50 MB and accepts exactly 50 MB", () => {
    expect(validateUpload({ name: "a.png", type: "image/png", size: 52_428_801 })).toBe(
      "File size exceeds maximum allowed size of 50MB",
    );
    expect(validateUpload({ name: "a.png", type: "image/png", size: 52_428_800 })).toBeNull();
  });

  it("refuses other extensions and lists the allowed ones", () => {
    expect(validateUpload({ name: "run.exe", type: "application/octet-stream", size: 10 })).toBe(
      `File extension "exe" is not allowed. Allowed extensions: ${ALLOWED}`,
    );
    expect(validateUpload({ name: "noextension", type: "image/png", size: 10 })).toBe(
      `File extension "" is not allowed. Allowed extensions: ${ALLOWED}`,
    );
  });

  it("refuses other MIME types", () => {
    expect(validateUpload({ name: "a.png", type: "text/html", size: 10 })).toBe(
      'File type "text/html" is not allowed. Allowed types: images, videos, audio, 3D models',
    );
    expect(validateUpload({ name: "a.mp4", type: "application/javascript", size: 10 })).toBe(
      'File type "application/javascript" is not allowed. Allowed types: images, videos, audio, 3D models',
    );
  });

  it("checks extension and MIME against a declared kind", () => {
    expect(validateUpload({ name: "a.mp4", type: "video/mp4", size: 10 }, "image")).toBe(
      'File extension "mp4" is not valid for image. Expected: jpg, jpeg, png, gif, webp, svg, bmp',
    );
    expect(validateUpload({ name: "a.png", type: "video/mp4", size: 10 }, "image")).toBe(
      'MIME type "video/mp4" is not valid for image',
    );
    expect(
      validateUpload({ name: "a.glb", type: "application/octet-stream", size: 10 }, "3d"),
    ).toBeNull();
    expect(validateUpload({ name: "a.glb", type: "image/png", size: 10 }, "3d")).toBe(
      'MIME type "image/png" is not valid for 3d',
    );
    expect(validateUpload({ name: "a.webm", type: "audio/webm", size: 10 }, "audio")).toBeNull();
    expect(validateUpload({ name: "a.webm", type: "audio/webm", size: 10 }, "video")).toBe(
      'MIME type "audio/webm" is not valid for video',
    );
  });

  it("accepts '3D' and 'model' as the 3D kind", () => {
    expect(
      validateUpload({ name: "a.glb", type: "application/octet-stream", size: 10 }, "model"),
    ).toBeNull();
    expect(validateUpload({ name: "a.png", type: "image/png", size: 10 }, "model")).toBe(
      'File extension "png" is not valid for model. Expected: glb, gltf',
    );
  });

  it("treats an unknown kind as none", () => {
    expect(validateUpload({ name: "a.png", type: "image/png", size: 10 }, "document")).toBeNull();
  });

  it("reads the extension after the last dot of the base name", () => {
    expect(fileExtension("archive.tar.GZ")).toBe("gz");
    expect(fileExtension("../../etc/passwd")).toBe("");
    expect(fileExtension(".png")).toBe("");
    expect(fileExtension("dir.v2/photo")).toBe("");
  });
});
