/**
 * Which output field holds a node's media (SPEC §3's media output keys): the one definition
 * that core's serialization, the server's job results and the web's previews and runs read.
 */

/** What a media output key holds; a `still` is an image shown with its model (a snapshot). */
export type MediaOutputKind = "image" | "video" | "audio" | "object" | "still";

/**
 * Every media output key and the kind it holds. Within a kind, keys are in reading order:
 * the first is the plain key a node writes (imageUrl, videoUrl, audioUrl, glbUrl), and a
 * connected input takes the first key that holds something.
 */
export const MEDIA_OUTPUT_KIND = {
  imageUrl: "image",
  processedImage: "image",
  image: "image",
  images: "image",
  videoUrl: "video",
  video: "video",
  processedVideo: "video",
  outputVideo: "video",
  mergedVideo: "video",
  upscaledVideo: "video",
  modifiedVideo: "video",
  generatedVideo: "video",
  audioUrl: "audio",
  audio: "audio",
  isolatedAudio: "audio",
  glbUrl: "object",
  modelUrl: "object",
  glbPbrUrl: "object",
  snapshot: "still",
  meshPreview: "still",
} as const satisfies Record<string, MediaOutputKind>;

/** A SPEC §3 media output key. */
export type MediaOutputKey = keyof typeof MEDIA_OUTPUT_KIND;

/**
 * The media output keys in SPEC §3's order: the order media is listed in
 * (`listOutputMedia`, whose first item a run reports) and extracted in.
 */
export const MEDIA_OUTPUT_KEYS = [
  "imageUrl",
  "processedImage",
  "image",
  "images",
  "videoUrl",
  "video",
  "glbUrl",
  "glbPbrUrl",
  "meshPreview",
  "audioUrl",
  "audio",
  "isolatedAudio",
  "modelUrl",
  "snapshot",
  "processedVideo",
  "outputVideo",
  "mergedVideo",
  "upscaledVideo",
  "modifiedVideo",
  "generatedVideo",
] as const satisfies readonly MediaOutputKey[];

/** Compile-time check: MEDIA_OUTPUT_KEYS names every key of MEDIA_OUTPUT_KIND. */
const everyKeyListed: Exclude<MediaOutputKey, (typeof MEDIA_OUTPUT_KEYS)[number]> extends never
  ? true
  : never = true;
void everyKeyListed;

/** The keys holding media of one kind, in reading order (the plain key first). */
export function mediaOutputKeys(kind: MediaOutputKind): MediaOutputKey[] {
  return (Object.keys(MEDIA_OUTPUT_KIND) as MediaOutputKey[]).filter(
    (key) => MEDIA_OUTPUT_KIND[key] === kind,
  );
}

/** The plain key a node writes its media of a kind under: imageUrl, videoUrl, audioUrl, glbUrl. */
export const PLAIN_MEDIA_OUTPUT_KEY = {
  image: "imageUrl",
  video: "videoUrl",
  audio: "audioUrl",
  object: "glbUrl",
} as const satisfies Partial<Record<MediaOutputKind, MediaOutputKey>>;
