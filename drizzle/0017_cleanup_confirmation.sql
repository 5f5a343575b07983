-- Cleanup that waits for a confirmed figure. A policy keeps the preview figure an admin confirmed for it as it
-- stands (null until then: its scheduled runs are dry runs), and a hold set when a scheduled preview ran far
-- above that figure. Policies that existed before start unconfirmed: none deletes again until an admin has seen
-- and confirmed what it would remove. A policy runs at a set time (UTC), never at save time. Runs and policies
-- may count status changes (ctime) in a unit's age; off by default, since kubelet's fsGroup walk resets every
-- ctime of a Kubernetes workspace's home at each pod start.
ALTER TABLE "cleanup_policies" ADD COLUMN "count_status_changes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "run_at_minute" integer DEFAULT 180 NOT NULL;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "run_weekday" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "confirmed_bytes" bigint;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "confirmed_workspaces" integer;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "confirmed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "confirmed_by" text;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "held_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "held_bytes" bigint;--> statement-breakpoint
ALTER TABLE "cleanup_policies" ADD COLUMN "held_workspaces" integer;--> statement-breakpoint
ALTER TABLE "cleanup_runs" ADD COLUMN "count_status_changes" boolean DEFAULT false NOT NULL;