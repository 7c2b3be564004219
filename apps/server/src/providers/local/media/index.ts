/**
 * The local provider's media synthesis: real, decodable files made offline and
 * deterministically from a node's inputs (same inputs → same bytes).
 */
export {
  type AudioKind,
  MAX_AUDIO_SECONDS,
  type RenderAudioOptions,
  renderAudio,
} from "./audio.ts";
export { STYLES, type Style } from "./effects.ts";
export {
  IMAGE_CONTENT_TYPES,
  type ImageFormat,
  MAX_IMAGE_SIDE,
  type RenderImageOptions,
  renderImage,
} from "./image.ts";
export { type RenderedModel, type RenderModelOptions, renderModel } from "./model3d.ts";
export { LocalMediaError, type Params } from "./params.ts";
export { IMAGE_OPERATIONS, type ImageOperation, processImage } from "./process-image.ts";
export { MAX_OUTPUT_PIXELS, MAX_OUTPUT_SIDE, type ProcessedImage } from "./raster.ts";
export { mulberry32, type Rng, rngFrom, seedFrom } from "./seed.ts";
export { escapeXml } from "./svg.ts";
export { keyTerms, LOCAL_TEXT_LABEL, type RenderTextOptions, renderText } from "./text.ts";
export {
  MAX_VIDEO_SECONDS,
  MAX_VIDEO_SIDE,
  type RenderedVideo,
  type RenderVideoOptions,
  renderVideo,
} from "./video.ts";
