ALTER TABLE "workflow_chunks" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "workflow_chunks" ADD COLUMN "node_ids" text[];--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "chunk_head" text;