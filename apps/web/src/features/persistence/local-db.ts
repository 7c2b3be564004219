import type { SavedWorkflow } from "@atelier/core";
import Dexie, { type EntityTable } from "dexie";

export interface LocalWorkflow {
  id: string;
  name: string;
  data: SavedWorkflow;
  updatedAt: number;
}

/** The unsaved state of the open workflow, written as the user edits. */
export interface JournalEntry {
  key: "current";
  workflowId: string | null;
  name: string;
  data: SavedWorkflow;
  writtenAt: number;
}

export interface RecentWorkflow {
  id: string;
  name: string;
  accessedAt: number;
}

/** IndexedDB (version 1, SPEC §9): signed-out workflows, the edit journal, recent list. */
export class LocalDb extends Dexie {
  workflows!: EntityTable<LocalWorkflow, "id">;
  journal!: EntityTable<JournalEntry, "key">;
  recent!: EntityTable<RecentWorkflow, "id">;

  constructor(name = "atelier") {
    super(name);
    this.version(1).stores({
      workflows: "id, updatedAt",
      journal: "key",
      recent: "id, accessedAt",
    });
  }
}

export const localDb = new LocalDb();
