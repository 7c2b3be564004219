import { dataUrlMimeType, LIMITS } from "@atelier/core";

/** A data URL's bytes as a Blob of its MIME type. */
export function dataUrlToBlob(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(",");
  const head = dataUrl.slice(0, comma);
  const body = dataUrl.slice(comma + 1);
  const type = dataUrlMimeType(dataUrl) ?? "application/octet-stream";
  try {
    if (!/;base64$/i.test(head)) return new Blob([decodeURIComponent(body)], { type });
    const binary = atob(body);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return new Blob([bytes], { type });
  } catch (error) {
    throw new Error(`Failed to decode base64: ${(error as Error).message}`);
  }
}

/** Photographic types only: re-encoding PNG, GIF or SVG as JPEG would lose transparency or frames. */
const COMPRESSIBLE = new Set(["image/jpeg", "image/jpg", "image/webp", "image/bmp"]);

/**
 * Re-encodes a large photo as JPEG at 0.8 within 1920×1080 before upload (SPEC §9). On any
 * failure the original is used, with SPEC's message logged.
 */
export async function compressForUpload(blob: Blob): Promise<Blob> {
  if (!COMPRESSIBLE.has(blob.type) || blob.size <= LIMITS.media.compressionThresholdBytes)
    return blob;
  try {
    const bitmap = await createImageBitmap(blob).catch(() => {
      throw new Error("Failed to load image");
    });
    const scale = Math.min(
      1,
      LIMITS.media.imageCompressionMaxWidth / bitmap.width,
      LIMITS.media.imageCompressionMaxHeight / bitmap.height,
    );
    const canvas = new OffscreenCanvas(
      Math.round(bitmap.width * scale),
      Math.round(bitmap.height * scale),
    );
    const context = canvas.getContext("2d");
    if (!context) throw new Error("Failed to get canvas context");
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const compressed = await canvas
      .convertToBlob({ type: "image/jpeg", quality: LIMITS.media.uploadCompressionQuality })
      .catch(() => {
        throw new Error("Failed to compress image");
      });
    return compressed.size < blob.size ? compressed : blob;
  } catch (error) {
    console.warn((error as Error).message);
    return blob;
  }
}
