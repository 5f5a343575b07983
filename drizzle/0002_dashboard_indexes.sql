-- Indexes for the dashboard's JSON API (lib/db/queries/{fleet,workspaces}.ts). Hand-written because the
-- tables' schema files belong to ingest; IF NOT EXISTS so a later schema-declared index of the same name is harmless.
-- Fastest-growing roots: root_daily rows of one day (7 days ago), joined to root_latest by primary key.
CREATE INDEX IF NOT EXISTS "root_daily_day_idx" ON "root_daily" USING btree ("day");--> statement-breakpoint
-- Workspaces forecast to fill soon, soonest first.
CREATE INDEX IF NOT EXISTS "workspaces_forecast_full_idx" ON "workspaces" USING btree ("forecast_full_at") WHERE "forecast_full_at" IS NOT NULL;--> statement-breakpoint
-- The workspaces table sorted by name (the default besides total).
CREATE INDEX IF NOT EXISTS "workspaces_name_idx" ON "workspaces" USING btree ("name", "id");
