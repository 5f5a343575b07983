-- The day roll-ups keyed day first. Every report upserts its roots' rows of the day (root_daily) and its
-- workspace's row (workspace_daily) through the primary key. Keyed workspace first, today's entries were spread
-- over the whole index, one place per workspace and root, so at 10,000 workspaces x 30 roots x 90 days each
-- upsert read index pages from an index of 27M entries (ingest into 90 days of history ran at 0.73x the rate
-- into none). Keyed day first, today's entries sit together at the index's end. The same columns, so the
-- upserts' ON CONFLICT (workspace_id, root_key, day) finds the new key unchanged; the old order stays as a
-- plain index (one root's history, the export's order, late reports), which a rewrite in place (0015) never
-- touches. The day-only indexes are covered by the new keys. Rebuilding the keys reads the roll-ups once
-- (about a minute per 10M rows; the tables are locked meanwhile).
DROP INDEX "workspace_daily_day_idx";--> statement-breakpoint
ALTER TABLE "root_daily" DROP CONSTRAINT "root_daily_workspace_id_root_key_day_pk";--> statement-breakpoint
ALTER TABLE "workspace_daily" DROP CONSTRAINT "workspace_daily_workspace_id_day_pk";--> statement-breakpoint
ALTER TABLE "root_daily" ADD CONSTRAINT "root_daily_day_workspace_id_root_key_pk" PRIMARY KEY("day","workspace_id","root_key");--> statement-breakpoint
ALTER TABLE "workspace_daily" ADD CONSTRAINT "workspace_daily_day_workspace_id_pk" PRIMARY KEY("day","workspace_id");--> statement-breakpoint
CREATE INDEX "root_daily_workspace_root_day_idx" ON "root_daily" USING btree ("workspace_id","root_key","day");--> statement-breakpoint
CREATE INDEX "workspace_daily_workspace_day_idx" ON "workspace_daily" USING btree ("workspace_id","day");--> statement-breakpoint
DROP INDEX "root_daily_day_idx";
