-- Where the home and each root live and whether that survives a restart, as each report carries it: in raw
-- history, and on the workspace from its newest report, which the restart panel, the findings and the fleet's
-- "Lost at restart" view read. Null for reporters that do not send it.
ALTER TABLE "workspaces" ADD COLUMN "persistence" jsonb;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "persistence" jsonb;