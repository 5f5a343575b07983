ALTER TABLE "report_blockers" ADD COLUMN "by_key" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Rows from before the column: those of a workspace without a token can only have come with the key.
UPDATE "report_blockers" b SET "by_key" = true
  WHERE NOT EXISTS (SELECT 1 FROM "workspace_tokens" t WHERE t.workspace_id = b.workspace_id);
