ALTER TABLE "workspaces" ADD COLUMN "change_since" date;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "change_base_bytes" bigint;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "change_next_bytes" bigint;