import { sql } from "drizzle-orm";
import type { AppDb, Database } from "../db/client.ts";

export const WORKFLOW_CHANNEL = "atelier_workflow";
export const JOB_CHANNEL = "atelier_job";
export const RUN_CHANNEL = "atelier_run";
export const QUEUE_CHANNEL = "atelier_queue";

export interface WorkflowEvent {
  id: string;
  userId: string;
  updated_at: string;
  deleted?: boolean;
}

/** A job changed; streams read the job row itself (owner-scoped) to present it. */
export interface JobEvent {
  jobId: string;
  userId: string;
  status: string;
}

/** A run or one of its nodes changed; streams read the run (owner-scoped) to present it. */
export interface RunEvent {
  runId: string;
  userId: string;
  status: string;
}

/**
 * Fans one NOTIFY channel out to this process's listeners, by key. Changes are announced
 * with NOTIFY (inside the saving transaction where there is one), so every process — this
 * one included — hears of a change exactly when it commits.
 */
export class ChannelHub<E> {
  private readonly listeners = new Map<string, Set<(event: E) => void>>();
  private readonly everyone = new Set<(event: E) => void>();
  private stop: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly channel: string,
    private readonly keyOf: (event: E) => string,
  ) {}

  async start(): Promise<void> {
    this.stop = await this.database.listen(this.channel, (payload) => {
      let event: E;
      try {
        event = JSON.parse(payload) as E;
      } catch {
        return;
      }
      for (const listener of this.listeners.get(this.keyOf(event)) ?? []) listener(event);
      for (const listener of this.everyone) listener(event);
    });
  }

  /** Calls `listener` for every event under `key`; returns the unsubscribe function. */
  subscribe(key: string, listener: (event: E) => void): () => void {
    const set = this.listeners.get(key) ?? new Set();
    set.add(listener);
    this.listeners.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** Calls `listener` for every event on the channel (a worker's run driver). */
  subscribeAll(listener: (event: E) => void): () => void {
    this.everyone.add(listener);
    return () => this.everyone.delete(listener);
  }

  async close(): Promise<void> {
    await this.stop?.();
    this.listeners.clear();
    this.everyone.clear();
  }
}

/** Workflow changes, by workflow id. */
export class EventHub extends ChannelHub<WorkflowEvent> {
  constructor(database: Database) {
    super(database, WORKFLOW_CHANNEL, (event) => event.id);
  }
}

/** Job changes, by owner: one stream per signed-in tab. */
export class JobEventHub extends ChannelHub<JobEvent> {
  constructor(database: Database) {
    super(database, JOB_CHANNEL, (event) => event.userId);
  }
}

/** Work was queued, by queue name (see QueueWakeHub). */
export interface QueueEvent {
  queue: string;
}

/**
 * Work was queued by a process that does not work that queue (a web process): the workers
 * that do are woken at once instead of finding it at their next poll (up to 0.5 s later).
 */
export class QueueWakeHub extends ChannelHub<QueueEvent> {
  constructor(database: Database) {
    super(database, QUEUE_CHANNEL, (event) => event.queue);
  }
}

export async function announceQueued(db: AppDb, event: QueueEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${QUEUE_CHANNEL}, ${JSON.stringify(event)})`);
}

/** Run changes, by owner: the same per-user streams as jobs. */
export class RunEventHub extends ChannelHub<RunEvent> {
  constructor(database: Database) {
    super(database, RUN_CHANNEL, (event) => event.userId);
  }
}

export async function announceRunChange(db: AppDb, event: RunEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${RUN_CHANNEL}, ${JSON.stringify(event)})`);
}

/** Queues the change notice in the current transaction; it is sent when that commits. */
export async function announceWorkflowChange(tx: AppDb, event: WorkflowEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${WORKFLOW_CHANNEL}, ${JSON.stringify(event)})`);
}

export async function announceJobChange(db: AppDb, event: JobEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${JOB_CHANNEL}, ${JSON.stringify(event)})`);
}
