CREATE TABLE "workflow_version_chunks" (
	"workflow_id" text NOT NULL,
	"hash" text NOT NULL,
	"chunk_type" text NOT NULL,
	"data" text NOT NULL,
	"size_bytes" integer NOT NULL,
	CONSTRAINT "workflow_version_chunks_workflow_id_hash_pk" PRIMARY KEY("workflow_id","hash")
);
--> statement-breakpoint
CREATE TABLE "workflow_versions" (
	"workflow_id" text NOT NULL,
	"seq" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"author_id" text,
	"name" text,
	"restored_from" integer,
	"head" text NOT NULL,
	"chunk_hashes" text[] NOT NULL,
	"size_bytes" integer NOT NULL,
	"summary" jsonb,
	"summary_base" integer,
	CONSTRAINT "workflow_versions_workflow_id_seq_pk" PRIMARY KEY("workflow_id","seq")
);
--> statement-breakpoint
ALTER TABLE "workflow_version_chunks" ADD CONSTRAINT "workflow_version_chunks_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;