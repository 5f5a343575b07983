CREATE TABLE "workspace_agents" (
	"workspace_id" text NOT NULL,
	"agent" text NOT NULL,
	"kind" text NOT NULL,
	"bytes" bigint NOT NULL,
	"roots" integer NOT NULL,
	"old_bytes" double precision NOT NULL,
	"aged_bytes" double precision NOT NULL,
	"measured_bytes" bigint,
	"bytes_before" bigint,
	"measured_day" date,
	CONSTRAINT "workspace_agents_workspace_id_agent_kind_pk" PRIMARY KEY("workspace_id","agent","kind")
);
--> statement-breakpoint
ALTER TABLE "workspace_agents" ADD CONSTRAINT "workspace_agents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_agents_agent_idx" ON "workspace_agents" USING btree ("agent");--> statement-breakpoint
-- The workspaces' kept rows of the day are now root_growth's and workspace_agents': until the next rewrite (start,
-- ingest, maintenance) every workspace is computed at the request.
DELETE FROM "root_growth_days";
