import { nextTask } from "../../services/next-task.ts";

/** Items of a long array turned to JSON in one task (~5 ms each for the editor's nodes). */
export const ITEMS_PER_STEP = 400;

async function arrayInSteps(items: readonly unknown[]): Promise<string> {
  const pieces: string[] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_STEP) {
    if (start > 0) await nextTask();
    pieces.push(JSON.stringify(items.slice(start, start + ITEMS_PER_STEP)).slice(1, -1));
  }
  return `[${pieces.join(",")}]`;
}

/**
 * JSON.stringify of an object whose long arrays (a workflow's nodes and edges) are written a
 * slice per task: 10,000 nodes at once were a ~100 ms task after every edit. The text is
 * exactly JSON.stringify(value); the value must not change meanwhile (the document store's
 * states are immutable).
 */
export async function stringifyInSteps(value: Record<string, unknown>): Promise<string> {
  const fields: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    const long = Array.isArray(field) && field.length > ITEMS_PER_STEP;
    const json = long ? await arrayInSteps(field) : JSON.stringify(field);
    if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${fields.join(",")}}`;
}
