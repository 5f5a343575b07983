CREATE TABLE "cleanup_job_results" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"lease_token_hash" text NOT NULL,
	"status" text NOT NULL,
	"units_acted" bigint NOT NULL,
	"bytes_acted" bigint NOT NULL,
	"units" jsonb NOT NULL,
	"skipped" jsonb NOT NULL,
	"errors" jsonb NOT NULL,
	"log_tail" jsonb NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cleanup_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"source_job_id" uuid,
	"root_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"preview_bytes" bigint DEFAULT 0 NOT NULL,
	"preview_units" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"claimed_at" timestamp (3) with time zone,
	"lease_token_hash" text,
	"lease_expires_at" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"interruptions" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"units_acted" bigint,
	"bytes_acted" bigint,
	"skipped_units" integer,
	"error_count" integer
);
--> statement-breakpoint
CREATE TABLE "cleanup_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"recipe" text,
	"custom" jsonb,
	"params" jsonb,
	"scope" jsonb NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"action" text NOT NULL,
	"trash_days" integer NOT NULL,
	"min_age_hours" integer NOT NULL,
	"expires_days" integer NOT NULL,
	"schedule" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"last_run_at" timestamp (3) with time zone,
	"last_run_id" uuid
);
--> statement-breakpoint
CREATE TABLE "cleanup_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"recipe" text,
	"custom" jsonb,
	"params" jsonb,
	"scope" jsonb NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"action" text NOT NULL,
	"trash_days" integer NOT NULL,
	"min_age_hours" integer NOT NULL,
	"expires_days" integer NOT NULL,
	"source_job_id" uuid,
	"policy_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by_type" text NOT NULL,
	"created_by_id" text,
	"created_by_label" text NOT NULL,
	"preview_bytes" bigint DEFAULT 0 NOT NULL,
	"preview_units" bigint DEFAULT 0 NOT NULL,
	"preview_estimate" boolean DEFAULT false NOT NULL,
	"workspaces_without_usage" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	"cancelled_by" text
);
--> statement-breakpoint
ALTER TABLE "cleanup_job_results" ADD CONSTRAINT "cleanup_job_results_job_id_cleanup_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."cleanup_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleanup_jobs" ADD CONSTRAINT "cleanup_jobs_run_id_cleanup_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."cleanup_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cleanup_jobs" ADD CONSTRAINT "cleanup_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cleanup_jobs_workspace_state_idx" ON "cleanup_jobs" USING btree ("workspace_id","state");--> statement-breakpoint
CREATE INDEX "cleanup_jobs_run_idx" ON "cleanup_jobs" USING btree ("run_id","state");--> statement-breakpoint
CREATE INDEX "cleanup_jobs_state_expires_idx" ON "cleanup_jobs" USING btree ("state","expires_at");--> statement-breakpoint
CREATE INDEX "cleanup_jobs_state_lease_idx" ON "cleanup_jobs" USING btree ("state","lease_expires_at");--> statement-breakpoint
CREATE INDEX "cleanup_runs_created_idx" ON "cleanup_runs" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cleanup_runs_policy_idx" ON "cleanup_runs" USING btree ("policy_id");