ALTER TABLE "root_latest" ADD COLUMN "recipes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "root_usage" ADD COLUMN "recipes" jsonb DEFAULT '{}'::jsonb NOT NULL;