import { sql } from "drizzle-orm";
import type { AppDb, Database } from "../db/client.ts";

export const WORKFLOW_CHANNEL = "atelier_workflow";

export interface WorkflowEvent {
  id: string;
  userId: string;
  updated_at: string;
  deleted?: boolean;
}

type Listener = (event: WorkflowEvent) => void;

/**
 * Fans workflow changes out to this process's event streams. Changes are announced with
 * NOTIFY inside the saving transaction, so every process — this one included — hears of a
 * change exactly when it commits.
 */
export class EventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private stop: (() => Promise<void>) | null = null;

  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    this.stop = await this.database.listen(WORKFLOW_CHANNEL, (payload) => {
      let event: WorkflowEvent;
      try {
        event = JSON.parse(payload) as WorkflowEvent;
      } catch {
        return;
      }
      for (const listener of this.listeners.get(event.id) ?? []) listener(event);
    });
  }

  /** Calls `listener` for every change of one workflow; returns the unsubscribe function. */
  subscribe(workflowId: string, listener: Listener): () => void {
    const set = this.listeners.get(workflowId) ?? new Set();
    set.add(listener);
    this.listeners.set(workflowId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(workflowId);
    };
  }

  async close(): Promise<void> {
    await this.stop?.();
    this.listeners.clear();
  }
}

/** Queues the change notice in the current transaction; it is sent when that commits. */
export async function announceWorkflowChange(tx: AppDb, event: WorkflowEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${WORKFLOW_CHANNEL}, ${JSON.stringify(event)})`);
}
