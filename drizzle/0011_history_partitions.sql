-- Raw history (reports, root_usage) partitioned by day on collected_at, so that retention drops whole days
-- (lib/db/history/partitions.ts creates them ahead and drops expired ones) instead of deleting rows. Written
-- by hand: drizzle-kit cannot declare partitions. The same SQL runs on PostgreSQL and on the embedded database.
--
-- Daily, not weekly: at 10,000 workspaces x 30 roots every 15 minutes a day is ~29M root rows; a day keeps the
-- partition being written (and its indexes) small enough to stay in memory, and a 14-day retention holds at most
-- one day more than asked for (weekly would hold up to 6 days more, +40 %). ~22 partitions per table stay
-- cheap to plan.
--
-- A DEFAULT partition takes rows for a day that has no partition (a late report from before the migration, or
-- a maintenance run that did not happen): a report is never refused or lost for a missing partition, and
-- maintenance moves such rows into their day's partition when it creates it.
--
-- Keys include workspace_id (a later move to Citus distributes by it) and, as Postgres requires of a partitioned
-- table, collected_at. reports.id is no longer unique on its own: ingest_reports checks it under a lock on the id.
ALTER TABLE "root_usage" DROP CONSTRAINT "root_usage_report_id_reports_id_fk";--> statement-breakpoint
ALTER TABLE "reports" RENAME TO "reports_unpartitioned";--> statement-breakpoint
ALTER TABLE "reports_unpartitioned" RENAME CONSTRAINT "reports_pkey" TO "reports_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "reports_workspace_collected_idx" RENAME TO "reports_unpartitioned_ws_idx";--> statement-breakpoint
ALTER TABLE "root_usage" RENAME TO "root_usage_unpartitioned";--> statement-breakpoint
ALTER TABLE "root_usage_unpartitioned" RENAME CONSTRAINT "root_usage_report_id_root_key_pk" TO "root_usage_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "root_usage_collected_brin" RENAME TO "root_usage_unpartitioned_brin";--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid NOT NULL,
	"workspace_id" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reporter_version" text NOT NULL,
	"scan_ms" real NOT NULL,
	"total_bytes" bigint NOT NULL,
	"root_count" integer NOT NULL,
	"volume_total_bytes" bigint,
	"volume_free_bytes" bigint,
	"volume_used_bytes" bigint,
	"volume_inodes_total" bigint,
	"volume_inodes_used" bigint,
	"volume_inodes_free" bigint,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "reports_workspace_id_collected_at_id_pk" PRIMARY KEY("workspace_id","collected_at","id")
) PARTITION BY RANGE ("collected_at");--> statement-breakpoint
CREATE TABLE "root_usage" (
	"report_id" uuid NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"workspace_id" text NOT NULL,
	"root_key" text NOT NULL,
	"kind" text NOT NULL,
	"agent" text NOT NULL,
	"path" text NOT NULL,
	"bytes" bigint NOT NULL,
	"apparent_bytes" bigint NOT NULL,
	"files" bigint NOT NULL,
	"dirs" bigint NOT NULL,
	"oldest_mtime" timestamp with time zone,
	"newest_mtime" timestamp with time zone,
	"orphaned" boolean DEFAULT false NOT NULL,
	"unreadable" integer DEFAULT 0 NOT NULL,
	"categories" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ages" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"largest" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"leftovers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recipes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "root_usage_collected_at_workspace_id_report_id_root_key_pk" PRIMARY KEY("collected_at","workspace_id","report_id","root_key")
) PARTITION BY RANGE ("collected_at");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_id_idx" ON "reports" USING btree ("id");--> statement-breakpoint
CREATE INDEX "root_usage_collected_brin" ON "root_usage" USING brin ("collected_at");--> statement-breakpoint
CREATE TABLE "reports_default" PARTITION OF "reports" DEFAULT;--> statement-breakpoint
CREATE TABLE "root_usage_default" PARTITION OF "root_usage" DEFAULT;--> statement-breakpoint
-- Day partitions from the oldest stored day (at most 62 days back: older rows wait in the default partition for
-- the first maintenance run to expire them) to a week ahead. Names are <table>_pYYYYMMDD, days in UTC.
DO $$
DECLARE
  v_today date := (now() AT TIME ZONE 'UTC')::date;
  v_from date;
  d date;
  t text;
BEGIN
  SELECT least(greatest(coalesce(min((collected_at AT TIME ZONE 'UTC')::date), v_today), v_today - 62), v_today)
    INTO v_from FROM reports_unpartitioned;
  FOR d IN SELECT generate_series(v_from, v_today + 7, interval '1 day')::date LOOP
    FOREACH t IN ARRAY ARRAY['reports', 'root_usage'] LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', t || '_p' || to_char(d, 'YYYYMMDD'), t,
        d::timestamp AT TIME ZONE 'UTC', (d + 1)::timestamp AT TIME ZONE 'UTC');
    END LOOP;
  END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "reports" ("id", "workspace_id", "collected_at", "received_at", "reporter_version", "scan_ms", "total_bytes",
  "root_count", "volume_total_bytes", "volume_free_bytes", "volume_used_bytes", "volume_inodes_total", "volume_inodes_used",
  "volume_inodes_free", "errors")
SELECT "id", "workspace_id", "collected_at", "received_at", "reporter_version", "scan_ms", "total_bytes", "root_count",
  "volume_total_bytes", "volume_free_bytes", "volume_used_bytes", "volume_inodes_total", "volume_inodes_used",
  "volume_inodes_free", "errors"
FROM "reports_unpartitioned";--> statement-breakpoint
INSERT INTO "root_usage" ("report_id", "collected_at", "workspace_id", "root_key", "kind", "agent", "path", "bytes",
  "apparent_bytes", "files", "dirs", "oldest_mtime", "newest_mtime", "orphaned", "unreadable", "categories", "ages",
  "largest", "leftovers", "recipes")
SELECT "report_id", "collected_at", "workspace_id", "root_key", "kind", "agent", "path", "bytes", "apparent_bytes",
  "files", "dirs", "oldest_mtime", "newest_mtime", "orphaned", "unreadable", "categories", "ages", "largest", "leftovers",
  "recipes"
FROM "root_usage_unpartitioned" ORDER BY "collected_at";--> statement-breakpoint
DROP TABLE "root_usage_unpartitioned";--> statement-breakpoint
DROP TABLE "reports_unpartitioned";
