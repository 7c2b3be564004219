import {
  getNodeDefinition,
  isThumbnail,
  type NodeCategory,
  type SavedWorkflow,
  THUMBNAIL,
} from "@atelier/core";
import { PORT_COLORS } from "../document/factory.ts";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";

/** Node boxes take their category's colour (the port colour of what it makes). */
const CATEGORY_COLOURS: Record<NodeCategory, string> = {
  text: PORT_COLORS.text,
  image: PORT_COLORS.image,
  video: PORT_COLORS.video,
  audio: PORT_COLORS.audio,
  "3d": PORT_COLORS.object,
  processing: PORT_COLORS.number,
  containers: PORT_COLORS.array,
};
const BACKGROUND = "#16181d";
const WIRE = "rgba(156, 163, 175, 0.55)";
const DEFAULT_SIZE = { width: 320, height: 180 };
const MARGIN = 8;
const MIN_EXTENT = { width: 800, height: 500 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const boxOf = (node: CanvasNode): Box => ({
  x: node.position.x,
  y: node.position.y,
  width: node.measured?.width ?? node.width ?? DEFAULT_SIZE.width,
  height: node.measured?.height ?? node.height ?? DEFAULT_SIZE.height,
});

/** Group children are placed relative to their group: the picture needs canvas positions. */
function absoluteBoxes(nodes: readonly CanvasNode[]): Map<string, Box> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const boxes = new Map<string, Box>();
  const place = (node: CanvasNode, depth: number): Box => {
    const known = boxes.get(node.id);
    if (known) return known;
    const box = boxOf(node);
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    if (parent && depth < 16) {
      const origin = place(parent, depth + 1);
      box.x += origin.x;
      box.y += origin.y;
    }
    boxes.set(node.id, box);
    return box;
  };
  for (const node of nodes) place(node, 0);
  return boxes;
}

const drawn = new WeakMap<
  readonly CanvasNode[],
  WeakMap<readonly CanvasEdge[], string | null | undefined>
>();

/** The last picture drawn and the graph it shows. */
let lastDrawn: {
  nodes: readonly CanvasNode[];
  edges: readonly CanvasEdge[];
  picture: string | null | undefined;
} | null = null;

/** The picture shows only what this compares: an edit of a prompt leaves it as it is. */
const samePlace = (a: CanvasNode, b: CanvasNode) =>
  a === b ||
  (a.id === b.id &&
    a.type === b.type &&
    a.parentId === b.parentId &&
    a.position.x === b.position.x &&
    a.position.y === b.position.y &&
    a.width === b.width &&
    a.height === b.height &&
    a.measured?.width === b.measured?.width &&
    a.measured?.height === b.measured?.height);

/** True when `nodes` and `edges` draw what the last picture shows (wires: the same list). */
function looksLikeLast(nodes: readonly CanvasNode[], edges: readonly CanvasEdge[]): boolean {
  if (!lastDrawn || lastDrawn.edges !== edges || lastDrawn.nodes.length !== nodes.length)
    return false;
  const before = lastDrawn.nodes;
  return nodes.every((node, index) => samePlace(node, before[index] as CanvasNode));
}

/**
 * A small picture of the canvas for the library (issue 24): every node a box in its
 * category's colour, every wire a line, fitted into 240 × 150. WebP where the browser
 * writes it, else PNG; null on an empty canvas (no picture); undefined where none could be
 * drawn (no canvas, too large), so the saved one stays. The same graph is drawn once, and
 * a graph whose boxes and wires are where the last one's were (an edit of a node's data)
 * is not drawn again.
 */
export function drawThumbnail(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): string | null | undefined {
  const forNodes = drawn.get(nodes);
  if (forNodes?.has(edges)) return forNodes.get(edges);
  const picture = looksLikeLast(nodes, edges)
    ? (lastDrawn?.picture as string | null | undefined)
    : draw(nodes, edges);
  lastDrawn = { nodes, edges, picture };
  const cache = forNodes ?? new WeakMap();
  cache.set(edges, picture);
  drawn.set(nodes, cache);
  return picture;
}

function draw(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): string | null | undefined {
  if (nodes.length === 0) return null;
  if (typeof document === "undefined") return undefined;
  const canvas = document.createElement("canvas");
  canvas.width = THUMBNAIL.width;
  canvas.height = THUMBNAIL.height;
  const context = canvas.getContext("2d");
  if (!context) return undefined;
  const boxes = absoluteBoxes(nodes);
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const box of boxes.values()) {
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width);
    bottom = Math.max(bottom, box.y + box.height);
  }
  // A few nodes sit on a canvas of at least this size, not stretched over the whole picture.
  const scale = Math.min(
    (THUMBNAIL.width - 2 * MARGIN) / Math.max(right - left, MIN_EXTENT.width),
    (THUMBNAIL.height - 2 * MARGIN) / Math.max(bottom - top, MIN_EXTENT.height),
  );
  const offsetX = (THUMBNAIL.width - (right - left) * scale) / 2;
  const offsetY = (THUMBNAIL.height - (bottom - top) * scale) / 2;
  const toX = (x: number) => offsetX + (x - left) * scale;
  const toY = (y: number) => offsetY + (y - top) * scale;

  context.fillStyle = BACKGROUND;
  context.fillRect(0, 0, THUMBNAIL.width, THUMBNAIL.height);
  // Wires first, from the right of the source box to the left of the target box.
  context.strokeStyle = WIRE;
  context.lineWidth = 1;
  context.beginPath();
  for (const edge of edges) {
    const from = boxes.get(edge.source);
    const to = boxes.get(edge.target);
    if (!from || !to) continue;
    context.moveTo(toX(from.x + from.width), toY(from.y + from.height / 2));
    context.lineTo(toX(to.x), toY(to.y + to.height / 2));
  }
  context.stroke();
  // Groups as outlines behind, then the nodes as filled boxes.
  for (const node of nodes) {
    const box = boxes.get(node.id) as Box;
    const category = getNodeDefinition(node.type ?? "")?.category ?? "containers";
    const colour = CATEGORY_COLOURS[category];
    const [x, y] = [toX(box.x), toY(box.y)];
    const [width, height] = [Math.max(box.width * scale, 2), Math.max(box.height * scale, 2)];
    if (node.type === "group") {
      context.strokeStyle = colour;
      context.strokeRect(x, y, width, height);
    } else {
      context.fillStyle = colour;
      context.fillRect(x, y, width, height);
    }
  }
  for (const [type, quality] of [
    ["image/webp", 0.7],
    ["image/jpeg", 0.7],
  ] as const) {
    const url = canvas.toDataURL(type, quality);
    if (isThumbnail(url)) return url;
  }
  return undefined;
}

/** The saved data with the canvas's picture in its metadata (null: none any more). */
export function withThumbnail(
  data: SavedWorkflow,
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): SavedWorkflow {
  const thumbnail = drawThumbnail(nodes, edges);
  if (thumbnail === undefined) return data;
  return { ...data, metadata: { ...data.metadata, thumbnail } };
}
