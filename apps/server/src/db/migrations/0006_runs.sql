CREATE TABLE "run_nodes" (
	"run_id" text NOT NULL,
	"node_id" text NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"label" text,
	"feeders" text[] NOT NULL,
	"status" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"job_id" text,
	"signature" text,
	"outputs" jsonb,
	"output_values" jsonb,
	"error" text,
	"note" text,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "run_nodes_run_id_node_id_pk" PRIMARY KEY("run_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"workflow_id" text,
	"based_on" text,
	"status" text NOT NULL,
	"target" jsonb NOT NULL,
	"inputs" jsonb NOT NULL,
	"graph" jsonb NOT NULL,
	"queue_order" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_queues" (
	"user_id" text PRIMARY KEY NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "run_id" text;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "results_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_nodes" ADD CONSTRAINT "run_nodes_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "runs_user_status_idx" ON "runs" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "runs_workflow_created_idx" ON "runs" USING btree ("workflow_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_run_idx" ON "jobs" USING btree ("run_id");