-- The kept growth moves from a row per grown root (root_growth) to a row per workspace (root_growth_days.grown):
-- rewriting a workspace's growth after each report wrote every grown root with two index entries.
-- The kept rows hold no grown roots yet: forgetting them has the pages compute each workspace's growth at the
-- request (and its agents' rows, kept for the same day) until its next report or the next maintenance.
DELETE FROM "root_growth_days";--> statement-breakpoint
DROP TABLE "root_growth" CASCADE;--> statement-breakpoint
ALTER TABLE "root_growth_days" ADD COLUMN "top_growth" bigint;--> statement-breakpoint
ALTER TABLE "root_growth_days" ADD COLUMN "grown" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "root_growth_days_top_idx" ON "root_growth_days" USING btree ("since_day","top_growth" DESC NULLS LAST,"workspace_id");
