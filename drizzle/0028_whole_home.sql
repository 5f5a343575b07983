ALTER TABLE "workspaces" ADD COLUMN "home" jsonb;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "home" jsonb;