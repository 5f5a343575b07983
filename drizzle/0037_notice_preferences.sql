CREATE TABLE "owner_notice_preferences" (
	"owner" text NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "owner_notice_preferences_owner_channel_kind_pk" PRIMARY KEY("owner","channel","kind")
);
--> statement-breakpoint
ALTER TABLE "owner_contacts" ADD COLUMN "source" text DEFAULT 'coder' NOT NULL;