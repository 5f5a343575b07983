CREATE TABLE "report_blockers" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner" text NOT NULL,
	"template" text,
	"reason" text NOT NULL,
	"detail" text NOT NULL,
	"module_version" text,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
