/** Running the instance: request counters, per-user quota overrides and live workers. */
import { doublePrecision, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { updatedAt } from "./columns.ts";

/**
 * Request counts per key (`user:…`, `anon:…`, `ip:…`) in the window that began with the key's
 * first request: quotas shared by every process through the database, so the embedded
 * default needs no Redis. Lapsed rows are swept now and then.
 */
export const usageCounters = pgTable(
  "usage_counters",
  {
    key: text("key").primaryKey(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull(),
  },
  (table) => [index("usage_counters_window_idx").on(table.windowStart)],
);

/** An admin's quota overrides for one user (null: the instance's default). */
export const userQuotas = pgTable("user_quotas", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  generationsPerMinute: integer("generations_per_minute"),
  concurrentJobs: integer("concurrent_jobs"),
  /** Spend budgets in US dollars (null: the instance's default). */
  dailyBudgetUsd: doublePrecision("daily_budget_usd"),
  monthlyBudgetUsd: doublePrecision("monthly_budget_usd"),
  updatedAt: updatedAt(),
});

/**
 * Processes working the generation queue: each writes its row when it starts and again every
 * sweep (15 s), and deletes it when it stops; one silent for a minute is no longer alive
 * (the admin page's instance health).
 */
export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  concurrency: integer("concurrency").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull(),
});
