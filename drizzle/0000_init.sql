CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_tokens" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner" text NOT NULL,
	"template" text,
	"agent_name" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	"last_report_id" uuid,
	"last_collected_at" timestamp with time zone,
	"volume_total_bytes" bigint,
	"volume_free_bytes" bigint,
	"total_bytes" bigint DEFAULT 0 NOT NULL,
	"root_count" integer DEFAULT 0 NOT NULL,
	"largest_agent" text,
	"largest_agent_bytes" bigint,
	"growth_bytes_per_day" real,
	"forecast_full_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fleet_delta" (
	"day" date NOT NULL,
	"agent" text NOT NULL,
	"kind" text NOT NULL,
	"shard" smallint NOT NULL,
	"bytes" bigint NOT NULL,
	"roots" integer NOT NULL,
	CONSTRAINT "fleet_delta_day_agent_kind_shard_pk" PRIMARY KEY("day","agent","kind","shard")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reporter_version" text NOT NULL,
	"scan_ms" real NOT NULL,
	"total_bytes" bigint NOT NULL,
	"root_count" integer NOT NULL,
	"volume_total_bytes" bigint,
	"volume_free_bytes" bigint,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "root_daily" (
	"workspace_id" text NOT NULL,
	"root_key" text NOT NULL,
	"day" date NOT NULL,
	"agent" text NOT NULL,
	"kind" text NOT NULL,
	"bytes" bigint NOT NULL,
	"apparent_bytes" bigint NOT NULL,
	"files" bigint NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	CONSTRAINT "root_daily_workspace_id_root_key_day_pk" PRIMARY KEY("workspace_id","root_key","day")
);
--> statement-breakpoint
CREATE TABLE "root_latest" (
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
	CONSTRAINT "root_latest_workspace_id_root_key_pk" PRIMARY KEY("workspace_id","root_key")
);
--> statement-breakpoint
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
	CONSTRAINT "root_usage_report_id_root_key_pk" PRIMARY KEY("report_id","root_key")
);
--> statement-breakpoint
CREATE TABLE "workspace_daily" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"bytes" bigint NOT NULL,
	"volume_total_bytes" bigint,
	"volume_free_bytes" bigint,
	"collected_at" timestamp with time zone NOT NULL,
	CONSTRAINT "workspace_daily_workspace_id_day_pk" PRIMARY KEY("workspace_id","day")
);
--> statement-breakpoint
ALTER TABLE "workspace_tokens" ADD CONSTRAINT "workspace_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "root_usage" ADD CONSTRAINT "root_usage_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_tokens_hash_idx" ON "workspace_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "workspaces_owner_idx" ON "workspaces" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "workspaces_template_idx" ON "workspaces" USING btree ("template");--> statement-breakpoint
CREATE INDEX "workspaces_total_idx" ON "workspaces" USING btree ("total_bytes" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "workspaces_last_collected_idx" ON "workspaces" USING btree ("last_collected_at");--> statement-breakpoint
CREATE INDEX "reports_workspace_collected_idx" ON "reports" USING btree ("workspace_id","collected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "root_latest_root_bytes_idx" ON "root_latest" USING btree ("root_key","bytes" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "root_latest_agent_bytes_idx" ON "root_latest" USING btree ("agent","bytes" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "root_usage_ws_root_time_idx" ON "root_usage" USING btree ("workspace_id","root_key","collected_at");--> statement-breakpoint
CREATE INDEX "root_usage_collected_brin" ON "root_usage" USING brin ("collected_at");