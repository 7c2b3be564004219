/**
 * Recent job status answers, per job, for `POST /api/queue/status` (a tab without the event
 * stream asks every 3 s; a job changes far less often). An answer is dropped as soon as the
 * job's change notice (NOTIFY, the one the event streams use) reaches this process, and in
 * any case after `ttlMs` (JOB_STATUS_CACHE_TTL_MS) — the bound if a notice were ever lost.
 *
 * - Owner-scoped: an answer is given back only to the user it was read for; anyone else
 *   goes to the database (where another user's job is 404, never cached).
 * - A read that overlapped a change notice of its job is not kept (it may hold the older
 *   state), and polls arriving after the notice do not join it.
 * - Notices come through the per-user job event hub, so the answer is dropped before a
 *   stream of that user is told of the change: a tab never polls an older state than it
 *   was pushed.
 * - Polls of one job that miss together share one database read.
 */
export class JobStatusCache<Answer> {
  readonly #entries = new Map<string, { userId: string; answer: Answer; until: number }>();
  /** Reads under way, by job and user. */
  readonly #reading = new Map<string, { jobId: string; answer: Promise<Answer> }>();
  /** Users whose change notices are followed, with how to stop. */
  readonly #watched = new Map<string, () => void>();
  /** Counts change notices; `#changed` holds the count at each job's latest one. */
  #seq = 0;
  readonly #changed = new Map<string, number>();
  /** Reads begun before this count are not kept (their job's notice may be forgotten). */
  #floor = 0;
  readonly #sweeper: ReturnType<typeof setInterval> | null;

  constructor(
    readonly ttlMs: number,
    private readonly watch: (userId: string, onChange: (jobId: string) => void) => () => void,
    readonly maxEntries = 10_000,
  ) {
    this.#sweeper = ttlMs > 0 ? setInterval(() => this.#sweep(Date.now()), 60_000) : null;
    this.#sweeper?.unref();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A fresh answer, else `read()` (shared with polls of the same job and user under way). */
  async get(jobId: string, userId: string, read: () => Promise<Answer>): Promise<Answer> {
    if (this.ttlMs <= 0) return read();
    const known = this.lookup(jobId, userId);
    if (known !== null) return known;
    const key = `${jobId}\n${userId}`;
    const underway = this.#reading.get(key);
    if (underway) return underway.answer;
    const mark = this.mark(userId);
    const answer = read();
    this.#reading.set(key, { jobId, answer });
    try {
      const value = await answer;
      this.store(jobId, userId, value, mark);
      return value;
    } finally {
      if (this.#reading.get(key)?.answer === answer) this.#reading.delete(key);
    }
  }

  /**
   * Call before a database read and hand the result back to `store`: from now on this
   * user's change notices are followed, so one that lands during the read is seen.
   */
  mark(userId: string): number {
    if (this.ttlMs > 0 && !this.#watched.has(userId))
      this.#watched.set(
        userId,
        this.watch(userId, (changed) => this.invalidate(changed)),
      );
    return this.#seq;
  }

  lookup(jobId: string, userId: string, now = Date.now()): Answer | null {
    const entry = this.#entries.get(jobId);
    if (!entry || entry.userId !== userId) return null;
    if (entry.until <= now) {
      this.#entries.delete(jobId);
      return null;
    }
    return entry.answer;
  }

  store(jobId: string, userId: string, answer: Answer, mark: number, now = Date.now()): void {
    if (this.ttlMs <= 0 || mark < this.#floor || !this.#watched.has(userId)) return;
    if ((this.#changed.get(jobId) ?? -1) > mark) return;
    if (this.#entries.size >= this.maxEntries) this.#sweep(now);
    this.#entries.set(jobId, { userId, answer, until: now + this.ttlMs });
  }

  /** The job changed (a notice, or a change made by this process). */
  invalidate(jobId: string): void {
    this.#changed.set(jobId, ++this.#seq);
    this.#entries.delete(jobId);
    for (const [key, reading] of this.#reading)
      if (reading.jobId === jobId) this.#reading.delete(key);
  }

  close(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    for (const stop of this.#watched.values()) stop();
    this.#watched.clear();
    this.#entries.clear();
  }

  /** Drops expired answers (then the oldest, when full) and stops following idle users. */
  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(key);
    let excess = this.#entries.size - Math.floor(this.maxEntries * 0.9);
    for (const key of this.#entries.keys()) {
      if (excess-- <= 0) break;
      this.#entries.delete(key);
    }
    const active = new Set<string>();
    for (const entry of this.#entries.values()) active.add(entry.userId);
    for (const [userId, stop] of this.#watched)
      if (!active.has(userId)) {
        stop();
        this.#watched.delete(userId);
      }
    // Reads under way no longer hear of every change (forgotten notices, idle users).
    this.#changed.clear();
    this.#floor = ++this.#seq;
  }
}
