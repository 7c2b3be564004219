import type PgBoss from "pg-boss";
import { describe, expect, it, vi } from "vitest";
import { ensureQueue } from "../src/jobs/boss.ts";

const failing = (...codes: (string | undefined)[]) => {
  const createQueue = vi.fn(async () => {
    const code = codes.shift();
    if (code !== undefined) throw Object.assign(new Error(`failed with ${code}`), { code });
  });
  return { boss: { createQueue } as unknown as PgBoss, createQueue };
};

describe("ensureQueue (processes starting together on a fresh database)", () => {
  it("tries again after a deadlock or a lost insert race", async () => {
    const { boss, createQueue } = failing("40P01", "23505");
    await ensureQueue(boss, "steps", { retryLimit: 3 });
    expect(createQueue).toHaveBeenCalledTimes(3);
    expect(createQueue).toHaveBeenLastCalledWith("steps", { name: "steps", retryLimit: 3 });
  });

  it("gives up after its attempts, and passes any other error on at once", async () => {
    const deadlocks = failing("40P01", "40P01", "40P01");
    await expect(ensureQueue(deadlocks.boss, "steps", {}, 3)).rejects.toThrow("40P01");
    expect(deadlocks.createQueue).toHaveBeenCalledTimes(3);
    const refused = failing("42501");
    await expect(ensureQueue(refused.boss, "steps", {})).rejects.toThrow("42501");
    expect(refused.createQueue).toHaveBeenCalledTimes(1);
  });
});
