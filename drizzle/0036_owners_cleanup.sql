CREATE TABLE "cleanup_keeps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by_id" text,
	"created_by_label" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"ended_by" text
);
--> statement-breakpoint
CREATE TABLE "owner_recipes" (
	"recipe" text PRIMARY KEY NOT NULL,
	"owners_may_run" boolean NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cleanup_runs" ADD COLUMN "by_owner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cleanup_keeps" ADD CONSTRAINT "cleanup_keeps_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cleanup_keeps_workspace_idx" ON "cleanup_keeps" USING btree ("workspace_id","expires_at") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "cleanup_keeps_expires_idx" ON "cleanup_keeps" USING btree ("expires_at") WHERE ended_at is null;