CREATE SEQUENCE "public"."kept_pending_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "kept_pending" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT nextval('kept_pending_version_seq') NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kept_pending" ADD CONSTRAINT "kept_pending_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kept_pending_marked_at_idx" ON "kept_pending" USING btree ("marked_at");