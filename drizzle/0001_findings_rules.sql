CREATE TABLE "finding_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"enabled" boolean,
	"severity" text,
	"params" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
