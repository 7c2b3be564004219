ALTER TABLE "jobs" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "jobs_client_address_idx" ON "jobs" USING btree ("client_address");