import type { SavedWorkflow } from "@atelier/core";
import Dexie, { type EntityTable } from "dexie";
import { LOCAL_DB_NAME } from "./local-db-name.ts";

export interface LocalWorkflow {
  id: string;
  name: string;
  /** This browser's workflows and copies written after a save. */
  data?: SavedWorkflow;
  /** Copies written when a cloud workflow opens: `GET /api/workflows/:id`'s answer as is. */
  blob?: Blob;
  /** The same answer as a string, in copies written by earlier versions. */
  text?: string;
  updatedAt: number;
}

/** The unsaved state of the open workflow, written as the user edits. */
export interface JournalEntry {
  key: "current";
  workflowId: string | null;
  name: string;
  /** Cloud only: the version the edits started from (entries of earlier versions lack it). */
  basedOn?: string | null;
  /** The saved form as JSON: the worker's own text, kept as is (no parse, cheap to clone). */
  text?: string;
  /** The saved form as an object: entries of earlier versions, and the page-hide journal. */
  data?: SavedWorkflow;
  writtenAt: number;
}

/** A workflow that failed to save, encrypted (AES-GCM) with this browser's own key. */
export interface Backup {
  id?: number;
  workflowId: string | null;
  name: string;
  /** Cloud only: the version the failed save was based on. */
  basedOn?: string | null;
  createdAt: number;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

export interface StoredKey {
  name: string;
  key: CryptoKey;
}

/** A saved state of a workflow kept only on this device: its version history (issue 24). */
export interface DeviceSnapshot {
  key?: number;
  workflowId: string;
  /** The version's number for its workflow: 1, 2, 3… */
  number: number;
  name?: string;
  /** 1 when named (kept until unnamed), else 0: an index, so thinning reads keys only. */
  named: 0 | 1;
  restoredFrom?: number;
  data: SavedWorkflow;
  summary: { added: number; removed: number; changed: number };
  writtenAt: number;
}

export interface RecentWorkflow {
  id: string;
  name: string;
  accessedAt: number;
}

/**
 * IndexedDB (SPEC §9): signed-out workflows, the edit journal, the recent list, encrypted
 * backups of failed saves and the key that encrypts them; since version 2, the snapshots that
 * are device-only workflows' versions.
 */
export class LocalDb extends Dexie {
  declare workflows: EntityTable<LocalWorkflow, "id">;
  declare journal: EntityTable<JournalEntry, "key">;
  declare recent: EntityTable<RecentWorkflow, "id">;
  declare backups: EntityTable<Backup, "id">;
  declare cryptoKeys: EntityTable<StoredKey, "name">;
  declare snapshots: EntityTable<DeviceSnapshot, "key">;

  constructor(name = LOCAL_DB_NAME) {
    super(name);
    this.version(1).stores({
      workflows: "id, updatedAt",
      journal: "key",
      recent: "id, accessedAt",
      backups: "++id, createdAt",
      cryptoKeys: "name",
    });
    // Version 2: device-only workflows keep their recent states as versions.
    this.version(2).stores({
      snapshots: "++key, &[workflowId+number], [workflowId+named+number]",
    });
  }
}

export const localDb = new LocalDb();
