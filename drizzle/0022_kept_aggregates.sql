CREATE TABLE "root_growth" (
	"workspace_id" text NOT NULL,
	"root_key" text NOT NULL,
	"since_day" date NOT NULL,
	"agent" text NOT NULL,
	"kind" text NOT NULL,
	"bytes" bigint NOT NULL,
	"bytes_before" bigint NOT NULL,
	"growth" bigint NOT NULL,
	"latest_day" date NOT NULL,
	CONSTRAINT "root_growth_workspace_id_root_key_pk" PRIMARY KEY("workspace_id","root_key")
);
--> statement-breakpoint
CREATE TABLE "root_growth_days" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"since_day" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_series" (
	"workspace_id" text NOT NULL,
	"key" text NOT NULL,
	"bytes" bigint NOT NULL,
	"roots" integer NOT NULL,
	CONSTRAINT "workspace_series_workspace_id_key_pk" PRIMARY KEY("workspace_id","key")
);
--> statement-breakpoint
CREATE TABLE "kept_finding_rules" (
	"rule_id" text PRIMARY KEY NOT NULL,
	"signature" text NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kept_findings" (
	"rule_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_key" text NOT NULL,
	"agent" text,
	"n" integer NOT NULL,
	"total" double precision NOT NULL,
	"urgency" double precision NOT NULL,
	"members" jsonb NOT NULL,
	CONSTRAINT "kept_findings_workspace_id_rule_id_agent_key_pk" PRIMARY KEY("workspace_id","rule_id","agent_key")
);
--> statement-breakpoint
ALTER TABLE "workspace_tokens" ADD COLUMN "claim_hash" text;--> statement-breakpoint
ALTER TABLE "root_growth" ADD CONSTRAINT "root_growth_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "root_growth_days" ADD CONSTRAINT "root_growth_days_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_series" ADD CONSTRAINT "workspace_series_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_findings" ADD CONSTRAINT "kept_findings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "root_growth_day_growth_idx" ON "root_growth" USING btree ("since_day","growth" DESC NULLS LAST,"workspace_id","root_key");--> statement-breakpoint
CREATE INDEX "kept_findings_rule_idx" ON "kept_findings" USING btree ("rule_id");