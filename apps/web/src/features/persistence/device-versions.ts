import type { SavedWorkflow, VersionEntry, VersionSummary } from "@atelier/core";
import { local, locationOf } from "./document-io.ts";
import type { DeviceSnapshot, LocalDb } from "./local-db.ts";

/**
 * The version history of a workflow kept only on this device (issue 24): its last 50
 * journal snapshots and saves, in IndexedDB. The cloud keeps versions on the server; these
 * answer the same questions (list, read, name, restore) for the History panel.
 */
export const DEVICE_VERSIONS = {
  /** Unnamed snapshots kept per workflow; named ones are kept until unnamed. */
  keep: 50,
  /** A journal write makes a new snapshot at most this often (saves always do). */
  spacingMs: 60_000,
} as const;

export class DeviceVersionNotFound extends Error {
  constructor() {
    super("Version not found");
  }
}

/** Nodes added, removed and changed from `before` to `after`. */
export function summarize(before: SavedWorkflow | null, after: SavedWorkflow): VersionSummary {
  const old = new Map((before?.nodes ?? []).map((node) => [node.id, JSON.stringify(node)]));
  const summary = { added: 0, removed: 0, changed: 0 };
  const now = new Set<string>();
  for (const node of after.nodes) {
    now.add(node.id);
    const text = old.get(node.id);
    if (text === undefined) summary.added += 1;
    else if (text !== JSON.stringify(node)) summary.changed += 1;
  }
  for (const id of old.keys()) if (!now.has(id)) summary.removed += 1;
  return summary;
}

/** A workflow's snapshots on the `[workflowId+number]` index. */
const rangeIn = (db: LocalDb, workflowId: string) =>
  db.snapshots
    .where("[workflowId+number]")
    .between([workflowId, 0], [workflowId, Number.MAX_SAFE_INTEGER]);

const newestFirst = async (workflowId: string) =>
  rangeIn(await local(), workflowId)
    .reverse()
    .toArray();

/** The saved form without its picture: a save and a journal of the same state are one. */
const sameState = (a: SavedWorkflow, b: SavedWorkflow) => {
  const bare = (data: SavedWorkflow) =>
    JSON.stringify({ ...data, metadata: { ...data.metadata, thumbnail: undefined } });
  return bare(a) === bare(b);
};

const entryOf = (snapshot: DeviceSnapshot): VersionEntry => ({
  id: snapshot.number,
  created_at: new Date(snapshot.writtenAt).toISOString(),
  summary: snapshot.summary,
  ...(snapshot.name ? { name: snapshot.name } : {}),
  ...(snapshot.restoredFrom ? { restored_from: snapshot.restoredFrom } : {}),
});

async function find(workflowId: string, number: number): Promise<DeviceSnapshot> {
  const found = await (await local()).snapshots
    .where("[workflowId+number]")
    .equals([workflowId, number])
    .first();
  if (!found) throw new DeviceVersionNotFound();
  return found;
}

/**
 * Keeps `data` as the newest version of a device workflow. A journal write (`saved` false)
 * is skipped when the newest snapshot is younger than a minute; nothing is kept twice.
 */
export async function recordSnapshot(
  workflowId: string | null,
  data: SavedWorkflow,
  options: { saved: boolean; restoredFrom?: number; now?: number },
): Promise<void> {
  if (!workflowId || locationOf(workflowId) !== "local") return;
  const db = await local();
  const now = options.now ?? Date.now();
  // One transaction: a journal write and a save at once cannot take the same number.
  await db.transaction("rw", db.snapshots, async () => {
    const last = await rangeIn(db, workflowId).last();
    if (last && !options.saved && now - last.writtenAt < DEVICE_VERSIONS.spacingMs) return;
    if (last && !options.restoredFrom && sameState(last.data, data)) return;
    await db.snapshots.add({
      workflowId,
      number: (last?.number ?? 0) + 1,
      named: 0,
      data,
      summary: summarize(last?.data ?? null, data),
      writtenAt: now,
      ...(options.restoredFrom ? { restoredFrom: options.restoredFrom } : {}),
    });
    // The oldest unnamed ones beyond the last 50 go (keys only: their data is not read).
    const drop = await db.snapshots
      .where("[workflowId+named+number]")
      .between([workflowId, 0, 0], [workflowId, 0, Number.MAX_SAFE_INTEGER])
      .reverse()
      .offset(DEVICE_VERSIONS.keep)
      .primaryKeys();
    if (drop.length > 0) await db.snapshots.bulkDelete(drop);
  });
}

/** The versions answers of a device workflow, shaped as the server's. */
export const deviceVersions = {
  async list(workflowId: string) {
    return { versions: (await newestFirst(workflowId)).map(entryOf) };
  },
  async read(workflowId: string, number: number) {
    const snapshot = await find(workflowId, number);
    const { summary: _summary, ...version } = entryOf(snapshot);
    return { version, data: snapshot.data };
  },
  async name(workflowId: string, number: number, name: string | null) {
    const snapshot = await find(workflowId, number);
    const db = await local();
    if (name) await db.snapshots.update(snapshot.key as number, { name, named: 1 });
    else
      await db.snapshots
        .where("key")
        .equals(snapshot.key as number)
        .modify((row) => {
          delete row.name;
          row.named = 0;
        });
    return { success: true as const };
  },
  /** The version becomes the workflow's saved state, and its newest version. */
  async restore(workflowId: string, number: number) {
    const snapshot = await find(workflowId, number);
    const db = await local();
    const record = await db.workflows.get(workflowId);
    const data = { ...snapshot.data, metadata: { ...snapshot.data.metadata, id: workflowId } };
    await db.workflows.put({
      id: workflowId,
      name: record?.name ?? data.metadata.name ?? "Untitled",
      data,
      updatedAt: Date.now(),
    });
    await recordSnapshot(workflowId, data, { saved: true, restoredFrom: number });
    const newest = (await newestFirst(workflowId))[0] as DeviceSnapshot;
    return { version: newest.number };
  },
  /** The workflow as saved on this device now. */
  async current(workflowId: string) {
    const record = await (await local()).workflows.get(workflowId);
    if (!record?.data) throw new DeviceVersionNotFound();
    return { workflow: { name: record.name, data: record.data } };
  },
};

/** A workflow that now lives in the account keeps its history there: the device's goes. */
export async function forgetDeviceVersions(workflowId: string): Promise<void> {
  await rangeIn(await local(), workflowId).delete();
}
