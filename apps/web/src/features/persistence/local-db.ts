import type { SavedWorkflow } from "@atelier/core";
import Dexie, { type EntityTable } from "dexie";

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
  data: SavedWorkflow;
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

export interface RecentWorkflow {
  id: string;
  name: string;
  accessedAt: number;
}

/**
 * IndexedDB (version 1, SPEC §9): signed-out workflows, the edit journal, the recent list,
 * encrypted backups of failed saves and the key that encrypts them.
 */
export class LocalDb extends Dexie {
  declare workflows: EntityTable<LocalWorkflow, "id">;
  declare journal: EntityTable<JournalEntry, "key">;
  declare recent: EntityTable<RecentWorkflow, "id">;
  declare backups: EntityTable<Backup, "id">;
  declare cryptoKeys: EntityTable<StoredKey, "name">;

  constructor(name = "atelier") {
    super(name);
    this.version(1).stores({
      workflows: "id, updatedAt",
      journal: "key",
      recent: "id, accessedAt",
      backups: "++id, createdAt",
      cryptoKeys: "name",
    });
  }
}

export const localDb = new LocalDb();
