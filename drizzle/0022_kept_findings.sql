CREATE TABLE "kept_finding_rules" (
	"rule_id" text PRIMARY KEY NOT NULL,
	"signature" text NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kept_findings" (
	"rule_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"root_key" text,
	"agent" text,
	"path" text,
	"value" double precision NOT NULL,
	"threshold" double precision NOT NULL,
	"urgency" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kept_findings" ADD CONSTRAINT "kept_findings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kept_findings_rule_idx" ON "kept_findings" USING btree ("rule_id","workspace_id");--> statement-breakpoint
CREATE INDEX "kept_findings_workspace_idx" ON "kept_findings" USING btree ("workspace_id");