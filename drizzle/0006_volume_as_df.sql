ALTER TABLE "workspaces" ADD COLUMN "volume_used_bytes" bigint;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "volume_inodes_total" bigint;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "volume_inodes_used" bigint;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "volume_inodes_free" bigint;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "volume_used_pct" smallint GENERATED ALWAYS AS (CASE WHEN coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes) + volume_free_bytes > 0
        THEN ceil(coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes) * 100.0
          / (coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes) + volume_free_bytes)) END) STORED;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "volume_inodes_used_pct" smallint GENERATED ALWAYS AS (CASE WHEN volume_inodes_used + volume_inodes_free > 0
        THEN ceil(volume_inodes_used * 100.0 / (volume_inodes_used + volume_inodes_free)) END) STORED;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "volume_used_bytes" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "volume_inodes_total" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "volume_inodes_used" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "volume_inodes_free" bigint;--> statement-breakpoint
ALTER TABLE "root_latest" ADD COLUMN "leftovers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "root_usage" ADD COLUMN "leftovers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_daily" ADD COLUMN "volume_used_bytes" bigint;--> statement-breakpoint
CREATE INDEX "workspaces_volume_used_pct_idx" ON "workspaces" USING btree ("volume_used_pct" DESC NULLS LAST);