CREATE TABLE "notice_states" (
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"state_key" text NOT NULL,
	"level" integer NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notice_states_workspace_id_kind_pk" PRIMARY KEY("workspace_id","kind")
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"workspace_id" text NOT NULL,
	"owner" text NOT NULL,
	"notice" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"last_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "owner_contacts" (
	"owner" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notice_states" ADD CONSTRAINT "notice_states_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "notification_outbox_created_idx" ON "notification_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "notification_outbox_attempt_idx" ON "notification_outbox" USING btree ("last_attempt_at");--> statement-breakpoint
CREATE INDEX "notification_outbox_workspace_idx" ON "notification_outbox" USING btree ("workspace_id","created_at");