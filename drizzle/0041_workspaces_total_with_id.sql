DROP INDEX "workspaces_total_idx";--> statement-breakpoint
CREATE INDEX "workspaces_total_idx" ON "workspaces" USING btree ("total_bytes" DESC NULLS FIRST,"id" DESC NULLS FIRST);