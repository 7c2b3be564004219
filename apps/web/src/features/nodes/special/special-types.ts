/*
 * Which node types have a special section (SpecialContent.tsx, loaded with the first such
 * node) and which show it instead of the generic output: known at once, for every node.
 */

/** Processing nodes with a live preview in the browser (the server runs the same operation). */
export const PREVIEWED = new Set(["crop", "resize", "levels", "reframe"]);

/** Types whose special content is their result, so the generic output section is left out. */
const OWN_RESULT = new Set([
  "container",
  "video-container",
  "3d-container",
  "audio-container",
  "image-automation",
  "notepad",
  "annotation",
  "markdown-viewer",
  "character-reference",
]);
export const showsOwnResult = (type: string) => OWN_RESULT.has(type);

/** Whether SpecialContent draws anything for `type`. */
export const hasSpecialContent = (type: string) =>
  OWN_RESULT.has(type) || PREVIEWED.has(type) || type === "scene-composer";
