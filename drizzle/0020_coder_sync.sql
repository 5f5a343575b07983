CREATE TABLE "coder_sync_state" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"succeeded_at" timestamp with time zone,
	"listed" integer DEFAULT 0 NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"deleted" integer DEFAULT 0 NOT NULL,
	"jobs_cancelled" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_status" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_transition" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_dormant_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_deleting_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_healthy" boolean;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "coder_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cleanup_jobs" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
CREATE INDEX "workspaces_deleted_idx" ON "workspaces" USING btree ("id") WHERE deleted_at is not null;