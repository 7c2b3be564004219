/**
 * Image automation: a list of items (lines of a text, media of a container) each run
 * through the generators wired to the automation's Results output.
 */

/** An automation runs at most this many items at once, so one click cannot flood the queue. */
export const AUTOMATION_MAX_ITEMS = 50;

export const AUTOMATION_MESSAGES = {
  noItems: "Nothing to run: connect a list, or a text with one item per line",
  noTargets: "Connect Results to a generator: it runs once per item",
  tooMany: `Image Automation runs up to ${AUTOMATION_MAX_ITEMS} items at a time`,
} as const;

/** The items of an automation: texts split by line (unless `splitBy` is "item"), trimmed, empties dropped. */
export function automationItems(values: readonly string[], splitBy: unknown): string[] {
  return values
    .flatMap((value) => (splitBy === "item" ? [value] : value.split(/\r?\n/)))
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The job node id of one item run: the automation's id and the item's position. */
export const automationItemId = (automationId: string, index: number) => `${automationId}~${index}`;

/** The automation and position of an item run's node id, or null for a plain node id. */
export function parseAutomationItemId(
  nodeId: string,
): { automationId: string; index: number } | null {
  const match = /^(.+)~(\d+)$/.exec(nodeId);
  return match ? { automationId: match[1] as string, index: Number(match[2]) } : null;
}
