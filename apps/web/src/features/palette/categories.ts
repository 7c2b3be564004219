import type { NodeCategory } from "@atelier/core";

export const CATEGORY_LABELS: Record<NodeCategory, string> = {
  text: "Text",
  image: "Image",
  video: "Video",
  "3d": "3D",
  audio: "Audio",
  processing: "Processing",
  containers: "Containers & notes",
};

/** The drag-and-drop data type that carries a node type from the palette. */
export const NODE_DRAG_TYPE = "application/x-atelier-node";
