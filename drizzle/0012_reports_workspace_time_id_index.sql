DROP INDEX "reports_workspace_collected_idx";--> statement-breakpoint
CREATE INDEX "reports_workspace_collected_idx" ON "reports" USING btree ("workspace_id","collected_at","id");