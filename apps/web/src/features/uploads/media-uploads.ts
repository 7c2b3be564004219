import { isDataUrl, LIMITS, MEDIA_OUTPUT_KEYS } from "@atelier/core";
import type { CanvasNode, CanvasNodeData } from "../document/types.ts";

/** SPEC §3 upload queue item states. */
export type UploadState = "pending" | "uploading" | "completed" | "failed";

/** One embedded media value of a node, found before a save. */
export interface UploadItem {
  nodeId: string;
  /** Where in the node's data the value sits, e.g. ["outputs", "images", 0]. */
  path: (string | number)[];
  dataUrl: string;
  state: UploadState;
  retries: number;
  url: string | null;
}

/** Decoded size of a data URL's content, without decoding it. */
export function embeddedBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(",");
  const body = dataUrl.length - comma - 1;
  return /;base64$/i.test(dataUrl.slice(0, comma)) ? Math.floor((body * 3) / 4) : body;
}

/**
 * Embedded media above the upload threshold in node outputs, output values and input
 * values (SPEC §4: large embedded data becomes storage URLs on save).
 */
export function findEmbeddedMedia(
  nodes: readonly CanvasNode[],
  minBytes: number = LIMITS.storageUpload.thresholdBytes,
): UploadItem[] {
  const found: UploadItem[] = [];
  const consider = (nodeId: string, path: (string | number)[], value: unknown) => {
    if (isDataUrl(value) && embeddedBytes(value) > minBytes)
      found.push({ nodeId, path, dataUrl: value, state: "pending", retries: 0, url: null });
  };
  for (const node of nodes) {
    const { outputs, outputValues, inputValues } = node.data;
    for (const key of MEDIA_OUTPUT_KEYS) {
      const value = outputs?.[key];
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, index) => {
        const at = Array.isArray(value) ? ["outputs", key, index] : ["outputs", key];
        if (item && typeof item === "object" && "url" in item)
          consider(node.id, [...at, "url"], item.url);
        else consider(node.id, at, item);
      });
    }
    for (const [name, entry] of Object.entries(outputValues ?? {}))
      consider(node.id, ["outputValues", name, "value"], entry?.value);
    for (const [name, entry] of Object.entries(inputValues ?? {}))
      consider(node.id, ["inputValues", name, "value"], entry?.value);
  }
  return found;
}

// Whether a node holds media to upload, by node object (nodes are replaced, never changed):
// a save after a small edit looks at the edited node again, not at every node (bench S3).
const holdsMedia = new WeakMap<CanvasNode, boolean>();

/** Whether any node holds embedded media above the upload threshold (findEmbeddedMedia). */
export function hasEmbeddedMedia(nodes: readonly CanvasNode[]): boolean {
  for (const node of nodes) {
    let holds = holdsMedia.get(node);
    if (holds === undefined) {
      holds = findEmbeddedMedia([node]).length > 0;
      holdsMedia.set(node, holds);
    }
    if (holds) return true;
  }
  return false;
}

/** A copy of `data` with the value at `path` replaced; only objects on the path are new. */
export function replaceAtPath(
  data: CanvasNodeData,
  path: readonly (string | number)[],
  value: unknown,
): CanvasNodeData {
  const step = (container: unknown, depth: number): unknown => {
    const key = path[depth] as string | number;
    const copy = (
      Array.isArray(container) ? [...container] : { ...(container as object) }
    ) as Record<string | number, unknown>;
    copy[key] = depth === path.length - 1 ? value : step(copy[key], depth + 1);
    return copy;
  };
  return step(data, 0) as CanvasNodeData;
}

export interface UploadQueueOptions {
  concurrency?: number;
  retries?: number;
  /** Waits before retry `attempt` (1-based); tests pass an immediate one. */
  wait?: (attempt: number) => Promise<void>;
  onChange?: (items: readonly UploadItem[]) => void;
}

const backoff = (attempt: number) => new Promise<void>((r) => setTimeout(r, 1000 * attempt));

/**
 * Uploads every item, 3 at a time with 3 retries each (SPEC §9). The same data URL is sent
 * once. A failure is logged and leaves the item `failed` with no URL (SPEC §8): the save
 * goes on with the embedded data.
 */
export async function runUploadQueue(
  items: UploadItem[],
  upload: (item: UploadItem) => Promise<string>,
  options: UploadQueueOptions = {},
): Promise<void> {
  const concurrency = options.concurrency ?? LIMITS.upload.queueConcurrency;
  const retries = options.retries ?? LIMITS.upload.queueRetries;
  const wait = options.wait ?? backoff;
  const byContent = new Map<string, UploadItem[]>();
  for (const item of items)
    byContent.set(item.dataUrl, [...(byContent.get(item.dataUrl) ?? []), item]);
  const groups = [...byContent.values()];
  const update = (group: UploadItem[], patch: Partial<UploadItem>) => {
    for (const item of group) Object.assign(item, patch);
    options.onChange?.(items);
  };
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++] as UploadItem[];
      const first = group[0] as UploadItem;
      for (;;) {
        update(group, { state: "uploading" });
        try {
          update(group, { state: "completed", url: await upload(first) });
          break;
        } catch (error) {
          if (first.retries >= retries) {
            console.error("Failed to upload media", error);
            update(group, { state: "failed" });
            break;
          }
          update(group, { state: "pending", retries: first.retries + 1 });
          await wait(first.retries);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, groups.length) }, worker));
}
