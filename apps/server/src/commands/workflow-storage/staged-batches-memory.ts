import type { ItemText } from "@atelier/core";
import { RateLimitedError } from "../../domain/errors.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import {
  dropStagedSave,
  nodeTexts,
  readStagedBatches,
  type SaveIds,
  saveKeyOf,
  stageBatch,
} from "./staged-batches-store.ts";

interface StagedSave {
  ids: SaveIds;
  /** Batches held in memory, by index. */
  batches: Map<number, ItemText[]>;
  /** Bytes of every staged batch (in memory or in the store), by index. */
  sizes: Map<number, number>;
  /** Some batch went to the store (over the memory budget): the commit reads it there. */
  inStore: boolean;
  touchedAt: number;
}

const MB = 1024 * 1024;

/**
 * Where the batches of saves in progress wait for their commit. A single-process server
 * keeps them in memory, up to `memoryBytes` in all: writing and reading back dozens of
 * files per save costs more than the save's own database write. Over the budget — and
 * always when `memoryBytes` is 0, as for web processes behind a load balancer, where
 * another process may receive the commit — a batch waits in the shared store instead.
 * A save untouched for `idleMs` (its client gave up without saying so) is dropped, from
 * memory and the store, by a sweep that runs while saves are staged.
 *
 * Each user may have `perUser.saves` saves staged at once, holding `perUser.bytes` in all
 * (memory and store together); beyond, a batch is refused with a 429 until a save commits,
 * is dropped, or lapses — so no one user takes the shared memory budget.
 */
export class SaveStaging {
  readonly #saves = new Map<string, StagedSave>();
  #bytes = 0;
  #sweeper: ReturnType<typeof setInterval> | null = null;

  readonly idleMs: number;
  readonly perUser: { saves: number; bytes: number };

  constructor(
    readonly store: BlobStore,
    readonly memoryBytes: number,
    options: { idleMs?: number; perUser?: { saves: number; bytes: number } } = {},
  ) {
    this.idleMs = options.idleMs ?? 10 * 60_000;
    this.perUser = options.perUser ?? { saves: Infinity, bytes: Infinity };
  }

  /** Bytes of node text held in memory. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Stages (or, for a retry, replaces) batch `index` of a save: nodes already checked. */
  async stage(ids: SaveIds, index: number, nodes: readonly { id: string }[], now = Date.now()) {
    this.#dropIdle(now);
    const key = saveKeyOf(ids);
    const known = this.#saves.get(key);
    const mine = [...this.#saves.values()].filter((save) => save.ids.userId === ids.userId);
    if (!known && mine.length >= this.perUser.saves)
      throw this.#tooMany(`at most ${this.perUser.saves} per user`, mine, now);
    const texts = nodeTexts(nodes);
    const size = sizeOf(texts);
    const held = mine.reduce((sum, save) => sum + total(save.sizes), 0);
    if (held - (known?.sizes.get(index) ?? 0) + size > this.perUser.bytes)
      throw this.#tooMany(`at most ${Math.floor(this.perUser.bytes / MB)} MB per user`, mine, now);
    const save = known ?? {
      ids,
      batches: new Map(),
      sizes: new Map(),
      inStore: false,
      touchedAt: now,
    };
    this.#saves.set(key, save);
    this.#sweepWhileStaged();
    save.touchedAt = now;
    save.sizes.set(index, size);
    const previous = save.batches.get(index);
    if (previous) {
      save.batches.delete(index);
      this.#bytes -= sizeOf(previous);
    }
    if (this.memoryBytes > 0 && this.#bytes + size <= this.memoryBytes) {
      save.batches.set(index, texts);
      this.#bytes += size;
      return;
    }
    save.inStore = true;
    await stageBatch(this.store, ids, index, texts);
  }

  /** The node texts of batches 0…count-1 in order; a missing batch fails the commit. */
  async read(ids: SaveIds, count: number): Promise<ItemText[]> {
    const save = this.#saves.get(saveKeyOf(ids));
    const elsewhere: number[] = [];
    for (let index = 0; index < count; index++) {
      // Not here: in the store, put there by this process or another (else missing).
      if (!save?.batches.has(index)) elsewhere.push(index);
    }
    const stored = await readStagedBatches(this.store, ids, elsewhere);
    const nodes: ItemText[] = [];
    for (let index = 0; index < count; index++)
      nodes.push(...((save?.batches.get(index) ?? stored.get(index)) as ItemText[]));
    return nodes;
  }

  /** Forgets a save's batches (after its commit, or when the client gives up). */
  async drop(ids: SaveIds, { anywhere = false } = {}): Promise<void> {
    const key = saveKeyOf(ids);
    const save = this.#saves.get(key);
    if (save) this.#forget(key, save);
    if (anywhere || !save || save.inStore) await dropStagedSave(this.store, ids);
  }

  /** The 429 for a user over a cap: retry once their oldest save may have lapsed. */
  #tooMany(cap: string, mine: readonly StagedSave[], now: number) {
    const oldest = Math.min(now, ...mine.map((save) => save.touchedAt));
    return new RateLimitedError(
      `Too many large saves in progress: ${cap}`,
      (oldest + this.idleMs - now) / 1000,
    );
  }

  #forget(key: string, save: StagedSave): void {
    for (const texts of save.batches.values()) this.#bytes -= sizeOf(texts);
    this.#saves.delete(key);
  }

  #dropIdle(now: number): void {
    for (const [key, save] of this.#saves) {
      if (now - save.touchedAt <= this.idleMs) continue;
      this.#forget(key, save);
      if (save.inStore) void dropStagedSave(this.store, save.ids).catch(() => undefined);
    }
  }

  /** A sweep a minute while any save is staged (it does not keep the process alive). */
  #sweepWhileStaged(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(() => {
      this.#dropIdle(Date.now());
      if (this.#saves.size === 0 && this.#sweeper) {
        clearInterval(this.#sweeper);
        this.#sweeper = null;
      }
    }, 60_000);
    this.#sweeper.unref?.();
  }
}

const sizeOf = (texts: readonly ItemText[]) => texts.reduce((sum, text) => sum + text.bytes, 0);
const total = (sizes: Map<number, number>) => [...sizes.values()].reduce((sum, n) => sum + n, 0);
