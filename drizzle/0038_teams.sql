CREATE TABLE "team_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"organization_id" text,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"group_id" text NOT NULL,
	"username" text NOT NULL,
	CONSTRAINT "team_members_group_id_username_pk" PRIMARY KEY("group_id","username")
);
--> statement-breakpoint
CREATE TABLE "team_organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "organization_id" text;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_group_id_team_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."team_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_groups_source_idx" ON "team_groups" USING btree ("source");--> statement-breakpoint
CREATE INDEX "team_members_username_idx" ON "team_members" USING btree ("username");