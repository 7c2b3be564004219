import { LIMITS } from "../limits.ts";
import { type GraphNode, nodeSize } from "./types.ts";

/** 16 group colours (SPEC §9), distinct hues that read on a dark canvas. */
export const GROUP_COLORS = [
  "#ef4444",
  "#f97316",
  "#f59e0b",
  "#eab308",
  "#84cc16",
  "#22c55e",
  "#10b981",
  "#14b8a6",
  "#06b6d4",
  "#0ea5e9",
  "#3b82f6",
  "#6366f1",
  "#8b5cf6",
  "#a855f7",
  "#d946ef",
  "#ec4899",
] as const;

/**
 * The next group colour: one used the fewest times so far, in palette order — so no colour
 * repeats until all 16 have been used.
 */
export function pickGroupColor(usedColors: readonly string[]): string {
  const counts = new Map<string, number>(GROUP_COLORS.map((color) => [color, 0]));
  for (const color of usedColors) {
    if (counts.has(color)) counts.set(color, (counts.get(color) ?? 0) + 1);
  }
  const fewest = Math.min(...counts.values());
  return GROUP_COLORS.find((color) => counts.get(color) === fewest) as string;
}

/**
 * The colour for a new group within a round of the palette (SPEC §4: none repeats until all
 * 16 have been used). `given` are the colours this round has handed out (the groups of a
 * workflow as it opened, then each new group's); a colour freed by an ungroup stays given.
 * Once all 16 are, a new round starts from the colours in use, least used first.
 */
export function nextGroupColor(
  given: readonly string[],
  inUse: readonly string[],
): { color: string; given: string[] } {
  const round = new Set([...given, ...inUse]);
  const fresh = GROUP_COLORS.find((color) => !round.has(color));
  if (fresh) return { color: fresh, given: [...round, fresh] };
  const color = pickGroupColor(inUse);
  return { color, given: [...new Set(inUse), color] };
}

/** A node belongs to a group when it has a parent, or the legacy `data.groupId`. */
export function isGrouped(node: GraphNode): boolean {
  return Boolean(node.parentId) || Boolean((node.data as { groupId?: unknown }).groupId);
}

export interface GroupResult<N extends GraphNode> {
  group: N;
  /** The grouped children with parentId set and positions relative to the group. */
  children: N[];
}

/**
 * Wraps the nodes not already in a group in a new group node: padding 20 around them and a
 * header of 80 above. Returns null when no node is left to group.
 */
export function groupNodes<N extends GraphNode>(
  nodes: readonly N[],
  options: { id?: string; color?: string; title?: string } = {},
): GroupResult<N> | null {
  const members = nodes.filter((node) => !isGrouped(node) && node.type !== "group");
  if (members.length === 0) return null;
  const id = options.id ?? `group-${Date.now().toString(36)}-${members.length}`;
  const color = options.color ?? pickGroupColor([]);
  const { groupPadding: padding, groupHeader: header } = LIMITS.layout;
  const left = Math.min(...members.map((node) => node.position.x));
  const top = Math.min(...members.map((node) => node.position.y));
  const right = Math.max(...members.map((node) => node.position.x + nodeSize(node).width));
  const bottom = Math.max(...members.map((node) => node.position.y + nodeSize(node).height));
  const position = { x: left - padding, y: top - padding - header };
  const width = right - left + padding * 2;
  const height = bottom - top + padding * 2 + header;
  const group = {
    id,
    type: "group",
    position,
    width,
    height,
    style: { width, height },
    data: { label: options.title ?? "Group", color },
    selected: true,
  } as unknown as N;
  const children = members.map((node) => ({
    ...node,
    parentId: id,
    extent: "parent",
    position: { x: node.position.x - position.x, y: node.position.y - position.y },
    selected: false,
  }));
  return { group, children };
}

/** Frees a group's children at their absolute positions; the caller removes the group node. */
export function ungroupNodes<N extends GraphNode>(group: GraphNode, nodes: readonly N[]): N[] {
  return nodes
    .filter((node) => node.parentId === group.id)
    .map((node) => {
      const { parentId: _parent, extent: _extent, ...rest } = node;
      return {
        ...rest,
        position: { x: node.position.x + group.position.x, y: node.position.y + group.position.y },
      } as N;
    });
}
