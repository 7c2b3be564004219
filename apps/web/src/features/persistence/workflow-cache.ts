import { LIMITS } from "@atelier/core";

interface Entry<T> {
  data: T;
  metadata: Record<string, unknown>;
  timestamp: number;
  size: number;
  accessCount: number;
  lastAccessed: number;
}

/**
 * Recently loaded workflows (SPEC §9): at most 3 entries and 20 MB, each for 5 minutes,
 * the least recently used leaving first.
 */
export class WorkflowCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits = {
      entries: LIMITS.cache.workflowEntries,
      bytes: LIMITS.cache.workflowBytes,
      ttlMs: LIMITS.cache.workflowTtlMs,
    },
  ) {}

  get(id: string): T | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (this.now() - entry.timestamp > this.limits.ttlMs) {
      this.entries.delete(id);
      return null;
    }
    entry.accessCount += 1;
    entry.lastAccessed = this.now();
    return entry.data;
  }

  set(id: string, data: T, size: number, metadata: Record<string, unknown> = {}): void {
    this.entries.delete(id);
    if (size > this.limits.bytes) return;
    const time = this.now();
    this.entries.set(id, {
      data,
      metadata,
      timestamp: time,
      size,
      accessCount: 0,
      lastAccessed: time,
    });
    while (this.entries.size > this.limits.entries || this.totalBytes() > this.limits.bytes) {
      const oldest = [...this.entries].sort((a, b) => a[1].lastAccessed - b[1].lastAccessed)[0];
      if (!oldest) break;
      this.entries.delete(oldest[0]);
    }
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }

  private totalBytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.size;
    return total;
  }
}
