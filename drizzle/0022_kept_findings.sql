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
ALTER TABLE "kept_findings" ADD CONSTRAINT "kept_findings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kept_findings_rule_idx" ON "kept_findings" USING btree ("rule_id");