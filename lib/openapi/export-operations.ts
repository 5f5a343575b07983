import { usageQuery } from "@/lib/validations/usage";
import { auditFilterQuery } from "@/lib/validations/audit";
import { usageExportQuery } from "@/lib/validations/export";
import { noticeFilters } from "@/lib/validations/notifications";
import { findingsFilterQuery } from "@/lib/validations/findings";
import { rangeQuery } from "@/lib/validations/range";
import { restartExportQuery } from "@/lib/validations/restart";
import { atRiskExportQuery } from "@/lib/validations/volumes";
import { workspaceListQuery } from "@/lib/validations/workspaces";
import { csv, type Operation } from "./operation";

// The CSV downloads: every table and chart of the pages, as the export routes answer them.
export const EXPORT_OPERATIONS: Record<string, Operation> = {
  "GET /api/v1/export/usage.csv": csv("Usage per workspace, root and day (or per report)", usageExportQuery),
  "GET /api/v1/export/usage-by.csv": csv(
    "The usage page's table: per organization, group, owner, template or agent, with the total",
    usageQuery,
  ),
  "GET /api/v1/export/workspaces.csv": csv("The workspaces table, all pages", workspaceListQuery),
  "GET /api/v1/export/findings.csv": csv("Every row of the findings page", findingsFilterQuery),
  "GET /api/v1/export/restart.csv": csv(
    "The lost-at-restart page: every folder lost at a restart, by template",
    restartExportQuery,
  ),
  "GET /api/v1/export/volumes.csv": csv(
    "The volumes-at-risk page's table, every row, with why each volume fills",
    atRiskExportQuery,
  ),
  "GET /api/v1/export/agents.csv": csv("The agents index: every agent and series with its storage"),
  "GET /api/v1/export/fleet.csv": csv("The overview's chart", rangeQuery),
  "GET /api/v1/export/fleet/[table]": csv(
    "One of the overview's lists: top-workspaces.csv, top-agents.csv, fastest-growing.csv, volumes-at-risk.csv, silent.csv",
    rangeQuery,
  ),
  "GET /api/v1/export/agents/[agent]": csv("Every workspace with data of the agent ({agent} is e.g. codex.csv)"),
  "GET /api/v1/export/agents/[agent]/[table]": csv(
    "The agent page's chart, kinds or histogram: series.csv, kinds.csv, distribution.csv",
    rangeQuery,
  ),
  "GET /api/v1/export/modules/[namespace]/[module]": csv(
    "The module page's chart ({module} is e.g. claude-code.csv)",
    rangeQuery,
  ),
  "GET /api/v1/export/workspaces/[id]/[table]": csv(
    "A workspace page's table or chart: roots.csv, categories.csv, sessions.csv, entries.csv, ages.csv, volume.csv, reports.csv",
    rangeQuery,
  ),
  "GET /api/v1/export/audit.csv": csv("The audit log", auditFilterQuery),
  "GET /api/v1/export/notifications.csv": csv("The owners' notices of the last 30 days", noticeFilters),
  "GET /api/v1/export/workspaces/[id]/notices.csv": csv("A workspace's notices of the last 30 days"),
  "GET /api/v1/export/cleanup/runs.csv": csv("Every cleanup run"),
  "GET /api/v1/export/cleanup/runs/[id]": csv("One run's outcomes ({id} is the run's id followed by .csv)"),
  "GET /api/v1/export/cleanup/policies.csv": csv("The cleanup policies, with their schedule and state"),
  "GET /api/v1/export/cleanup/recipes.csv": csv("The cleanup recipes, with what each would free across the fleet"),
  "GET /api/v1/export/settings/tables.csv": csv("The database's tables with their rows and sizes (Settings)"),
  "GET /api/v1/export/settings/reporter-versions.csv": csv(
    "The reporter rollout's versions: workspaces reporting with each, with errors, fallen back (Settings; admin)",
  ),
  "GET /api/v1/export/users.csv": csv("The dashboard's users and their roles"),
  "GET /api/v1/export/tokens.csv": csv("The API tokens (names, owners, roles, use; never the secrets)"),
};
