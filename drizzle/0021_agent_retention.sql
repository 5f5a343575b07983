-- The agents' own retention settings (Claude Code's cleanupPeriodDays, Gemini CLI's sessionRetention, Codex's
-- history.max_bytes, OpenCode's snapshot) as each report carries them: in raw history, and on the workspace from
-- its newest report, which the pages and the agent-retention finding read. Null for reporters that do not read them.
ALTER TABLE "workspaces" ADD COLUMN "agent_retention" jsonb;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "agent_retention" jsonb;