ALTER TABLE "jobs" ADD COLUMN "cost_usd" double precision;--> statement-breakpoint
ALTER TABLE "user_quotas" ADD COLUMN "daily_budget_usd" double precision;--> statement-breakpoint
ALTER TABLE "user_quotas" ADD COLUMN "monthly_budget_usd" double precision;--> statement-breakpoint
CREATE INDEX "jobs_completed_idx" ON "jobs" USING btree ("completed_at");