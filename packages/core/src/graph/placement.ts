import type { GraphNode } from "./types.ts";

/** A box on the canvas in flow units: its top-left corner and size. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The clear space kept between a newly placed node and its neighbours (one grid step). */
export const PLACEMENT_GAP = 20;

/** Where a placed box's top-left may not be: an open rectangle (its edges are allowed). */
interface Blocked {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The boxes of the nodes on the canvas, in absolute flow units (a child's position is
 * relative to its group); `sizeOf` gives a node's size (core's `nodeSize`, or the editor's
 * size hints for nodes not drawn yet).
 */
export function nodeBoxes<N extends GraphNode>(
  nodes: readonly N[],
  sizeOf: (node: N) => { width: number; height: number },
): Box[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const absolute = new Map<string, { x: number; y: number }>();
  const origin = (node: N, depth = 0): { x: number; y: number } => {
    const known = absolute.get(node.id);
    if (known) return known;
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    // A missing parent or a cycle (hostile data): the position is taken as it is.
    const base = parent && depth < 32 ? origin(parent, depth + 1) : { x: 0, y: 0 };
    const at = { x: base.x + node.position.x, y: base.y + node.position.y };
    absolute.set(node.id, at);
    return at;
  };
  return nodes.map((node) => ({ ...origin(node), ...sizeOf(node) }));
}

/**
 * The top-left nearest to `at` (straight-line distance) where a box of `size` overlaps no
 * box of `occupied` and keeps at least `gap` from each; `at` itself when it is free.
 * Deterministic: the result depends on the boxes, not on their order; of equally near
 * spots it takes one in the asked row, then below, then to the right (away from the top
 * bar and the sidebar, the way a graph is read).
 *
 * The nearest free point lies on a row through `at` or along a blocked area's top or bottom
 * edge, so rows are tried outwards from `at` and each is solved exactly along x, looking
 * only at the boxes of its horizontal band. Only boxes near `at` are looked at, in a window
 * that grows fourfold until the answer is inside it: a spot in an open area of a
 * 10,000-node graph costs one pass over the boxes; the middle of a packed 10,000-node grid
 * a few milliseconds.
 */
export function findFreeSpot(
  at: { x: number; y: number },
  size: { width: number; height: number },
  occupied: readonly Box[],
  gap = PLACEMENT_GAP,
): { x: number; y: number } {
  const blocked: Blocked[] = [];
  for (const box of occupied) {
    const area = {
      left: box.x - size.width - gap,
      right: box.x + box.width + gap,
      top: box.y - size.height - gap,
      bottom: box.y + box.height + gap,
    };
    if (Number.isFinite(area.left + area.right + area.top + area.bottom)) blocked.push(area);
  }
  if (!blocked.some((area) => inside(area, at.x, at.y))) return { x: at.x, y: at.y };
  // Most asks have a free spot close by: look among the nearby boxes first, then in a
  // window four times as wide, and so on until it holds every box.
  for (let radius = 2 * (Math.max(size.width, size.height) + gap); ; radius *= 4) {
    const near = blocked.filter(
      (area) =>
        area.left < at.x + radius &&
        area.right > at.x - radius &&
        area.top < at.y + radius &&
        area.bottom > at.y - radius,
    );
    // With every box in view there is always an answer (beyond the outermost box at last).
    const every = near.length === blocked.length;
    const spot = nearestIn(near, at, every ? Number.POSITIVE_INFINITY : radius);
    if (spot || every) return spot ?? { x: at.x, y: at.y };
  }
}

const inside = (area: Blocked, x: number, y: number) =>
  area.left < x && x < area.right && area.top < y && y < area.bottom;

/** The free point nearest to `at` within `limit` of it, given every area that reaches there. */
function nearestIn(
  near: Blocked[],
  at: { x: number; y: number },
  limit: number,
): { x: number; y: number } | null {
  // The rows, sorted, then walked outwards from `at.y` (downwards first on equal distance).
  const edges = new Float64Array(near.length * 2);
  near.forEach((area, index) => {
    edges[index * 2] = area.top;
    edges[index * 2 + 1] = area.bottom;
  });
  edges.sort();
  let below = edges.findIndex((y) => y > at.y);
  if (below < 0) below = edges.length;
  let above = below - 1;
  while (above >= 0 && edges[above] === at.y) above--;
  const sheet = sheetOf(near);
  let best: { x: number; y: number } | null = null;
  let bestDistance = limit;
  for (let y = at.y; Number.isFinite(y); ) {
    const dy = Math.abs(y - at.y);
    if (dy > limit || (best && dy >= bestDistance)) break;
    const x = nearestFreeX(sheet, y, at.x);
    const distance = Math.hypot(x - at.x, dy);
    if (distance < bestDistance || (!best && distance <= bestDistance)) {
      best = { x, y };
      bestDistance = distance;
    }
    // The next row: the nearer of the next edge above and below, each seen once.
    const up = above >= 0 ? (edges[above] as number) : Number.NEGATIVE_INFINITY;
    const down = below < edges.length ? (edges[below] as number) : Number.POSITIVE_INFINITY;
    if (at.y - up < down - at.y) {
      y = up;
      while (above >= 0 && edges[above] === up) above--;
    } else {
      y = down;
      while (below < edges.length && edges[below] === down) below++;
    }
  }
  return best;
}

/** Areas as columns of numbers, sorted by left edge: rows scan them often (10,000 nodes). */
interface Sheet {
  left: Float64Array;
  right: Float64Array;
  top: Float64Array;
  bottom: Float64Array;
  /** The area indices of a row: its band's, about an area tall. */
  across: (y: number) => readonly number[];
}

/** The areas in horizontal bands: a row looks at the areas of its band, not at every area. */
function sheetOf(areas: Blocked[]): Sheet {
  const sorted = [...areas].sort((a, b) => a.left - b.left);
  const count = sorted.length;
  const sheet = {
    left: new Float64Array(sorted.map((area) => area.left)),
    right: new Float64Array(sorted.map((area) => area.right)),
    top: new Float64Array(sorted.map((area) => area.top)),
    bottom: new Float64Array(sorted.map((area) => area.bottom)),
  };
  let total = 0;
  for (const area of sorted) total += area.bottom - area.top;
  const height = Math.max(1, total / Math.max(1, count));
  const byBand = new Map<number, number[]>();
  for (let index = 0; index < count; index++) {
    const last = Math.floor((sheet.bottom[index] as number) / height);
    for (let band = Math.floor((sheet.top[index] as number) / height); band <= last; band++) {
      const list = byBand.get(band);
      if (list) list.push(index);
      else byBand.set(band, [index]);
    }
  }
  const none: number[] = [];
  return { ...sheet, across: (y) => byBand.get(Math.floor(y / height)) ?? none };
}

/** Along the row `y`, the free x nearest to `x`. */
function nearestFreeX(sheet: Sheet, y: number, x: number): number {
  const { left, right, top, bottom } = sheet;
  let start = Number.NaN;
  let end = Number.NaN;
  for (const index of sheet.across(y)) {
    if (!((top[index] as number) < y && y < (bottom[index] as number))) continue;
    const from = left[index] as number;
    if (from >= x && !(from < end)) break; // past x, not joined to a span over x
    if (from < end) end = Math.max(end, right[index] as number);
    else {
      start = from;
      end = right[index] as number;
    }
  }
  if (!(start < x && x < end)) return x;
  return x - start < end - x ? start : end;
}
