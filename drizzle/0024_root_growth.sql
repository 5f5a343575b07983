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
ALTER TABLE "root_growth" ADD CONSTRAINT "root_growth_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "root_growth_days" ADD CONSTRAINT "root_growth_days_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "root_growth_day_growth_idx" ON "root_growth" USING btree ("since_day","growth" DESC NULLS LAST,"workspace_id","root_key");