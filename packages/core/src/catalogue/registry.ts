import { audioNodes } from "./audio.ts";
import { containerNodes } from "./containers.ts";
import { imageNodes } from "./image.ts";
import { imageVendorNodes } from "./image-vendors.ts";
import { processingNodes } from "./processing.ts";
import { textNodes } from "./text.ts";
import { threeDNodes } from "./three-d.ts";
import type { NodeDefinition } from "./types.ts";
import { videoNodes } from "./video.ts";
import { videoVendorNodes } from "./video-vendors.ts";

const ALL: readonly NodeDefinition[] = [
  ...textNodes,
  ...imageNodes,
  ...imageVendorNodes,
  ...videoNodes,
  ...videoVendorNodes,
  ...threeDNodes,
  ...audioNodes,
  ...processingNodes,
  ...containerNodes,
];

const BY_TYPE = new Map(ALL.map((definition) => [definition.type, definition]));

/** Every node type, in palette order. */
export function listNodeDefinitions(): readonly NodeDefinition[] {
  return ALL;
}

/** The definition of a node type, or undefined for an unknown type. */
export function getNodeDefinition(type: string): NodeDefinition | undefined {
  return BY_TYPE.get(type);
}

/** True for video and 3D nodes, whose completion may raise a desktop notification (SPEC §9). */
export function notificationKind(type: string): "video" | "3d" | null {
  const definition = BY_TYPE.get(type);
  if (!definition) return null;
  if (definition.outputs.some((port) => port.id === "video" && port.type === "video"))
    return "video";
  if (definition.category === "3d") return "3d";
  return null;
}

/**
 * SPEC §9: a video node fed by a scene composer gets this prompt when its own is empty
 * (the SPEC names the rule, not the words).
 */
export const SCENE_VIDEO_DEFAULT_PROMPT =
  "Bring this scene to life with gentle, natural motion and a slow cinematic camera move.";
