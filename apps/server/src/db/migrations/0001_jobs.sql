CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"workflow_id" text,
	"node_id" text NOT NULL,
	"model" text NOT NULL,
	"provider" text NOT NULL,
	"endpoint" text NOT NULL,
	"provider_request_id" text,
	"status" text NOT NULL,
	"step" text NOT NULL,
	"queue_position" integer,
	"progress" integer,
	"logs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input" jsonb NOT NULL,
	"outputs" jsonb,
	"output_values" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"idempotency_key" text,
	"callback_token" text NOT NULL,
	"runner" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_user_created_idx" ON "jobs" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_status_idx" ON "jobs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_user_idempotency_idx" ON "jobs" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "jobs_provider_request_idx" ON "jobs" USING btree ("provider","provider_request_id");