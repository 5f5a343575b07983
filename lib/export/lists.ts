import "server-only";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import type { PageOptions } from "@/lib/db/keyset";
import { agentWorkspaceRows, workspaceExportRows, type AgentWorkspaceRow } from "@/lib/db/queries/export-workspaces";
import { findingGroupRows, getRules } from "@/lib/db/queries/findings";
import { workspacesCopy } from "@/lib/db/queries/workspaces-copy";
import { everyVolumeAtRisk, type AtRiskVolume } from "@/lib/db/queries/volumes-at-risk";
import type { WorkspaceRow } from "@/lib/db/queries/workspace-row";
import type { Db } from "@/lib/db/types";
import type { FindingGroup } from "@/lib/findings/finding";
import { fullInText } from "@/lib/format/full-in";
import { dfColumns } from "./df-columns";
import { utcDayOf } from "@/lib/series";
import type { FindingsFilters } from "@/lib/validations/findings";
import type { WorkspaceListQuery } from "@/lib/validations/workspaces";
import type { WorkspaceScope } from "@/lib/db/scope";

// The exports of the lists that can be as long as the fleet (workspaces, findings, an agent's workspaces, the
// volumes at risk): read in keyset pages, never whole.

/**
 * The workspaces table's columns, with the volume as df shows it (Size, Used, Avail, Use%, IUse%). On PostgreSQL
 * COPY writes them, each header's cell in SQL (lib/db/queries/workspaces-copy.ts): a new column needs its SQL there.
 */
export const WORKSPACE_COLUMNS: CsvColumn<WorkspaceRow>[] = [
  col("id", "text", (r) => r.id),
  col("name", "text", (r) => r.name),
  col("owner", "text", (r) => r.owner),
  col("template", "text", (r) => r.template),
  col("total_bytes", "integer", (r) => r.totalBytes),
  col("change_7d_bytes", "integer", (r) => r.change7dBytes),
  col("root_count", "integer", (r) => r.rootCount),
  col("largest_agent", "text", (r) => r.largestAgent),
  col("largest_agent_bytes", "integer", (r) => r.largestAgentBytes),
  ...dfColumns<WorkspaceRow>((r) => r.volume),
  col("volume_full", "boolean", (r) => (r.volume ? r.volume.full || r.volume.inodesFull : null)),
  // A least-squares slope: whole bytes, as every size in these files.
  col("growth_bytes_per_day", "integer", (r) =>
    r.growthBytesPerDay === null ? null : Math.round(r.growthBytesPerDay),
  ),
  col("forecast_full_at", "time", (r) => r.forecastFullAt),
  col("last_report_at", "time", (r) => r.lastCollectedAt),
  col("silent", "boolean", (r) => r.silent),
  // Coder's view (the workspace sync): empty before a sync saw the workspace.
  col("coder_status", "text", (r) => r.coder.status),
  col("dormant_at", "time", (r) => r.coder.dormantAt),
  col("deleting_at", "time", (r) => r.coder.deletingAt),
  col("last_used_at", "time", (r) => r.coder.lastUsedAt),
  col("deleted_at", "time", (r) => r.coder.deletedAt),
  col("coder_url", "text", (r) => r.coder.href),
];

export function workspacesExport(
  db: Db,
  scope: WorkspaceScope,
  q: WorkspaceListQuery,
  opts: PageOptions & { now?: Date; coderUrl?: string | null } = {},
): CsvExport<WorkspaceRow> {
  const params = { ...q, now: opts.now, coderUrl: opts.coderUrl };
  return {
    filename: `workspaces-${utcDayOf(opts.now ?? new Date())}.csv`,
    columns: WORKSPACE_COLUMNS,
    rows: workspaceExportRows(db, scope, params, opts),
    // On PostgreSQL the same file written by COPY: the rows are then not read.
    open: workspacesCopy(db, scope, params, WORKSPACE_COLUMNS) ?? undefined,
  };
}

/** The findings page's rows: identical findings of one workspace are one row, with their count and total. */
export const FINDING_COLUMNS: CsvColumn<FindingGroup>[] = [
  col("severity", "text", (f) => f.severity),
  col("rule", "text", (f) => f.ruleId),
  col("workspace_id", "text", (f) => f.workspace.id),
  col("workspace", "text", (f) => f.workspace.name),
  col("owner", "text", (f) => f.workspace.owner),
  col("root", "text", (f) => f.rootKey),
  col("agent", "text", (f) => f.agent),
  col("path", "text", (f) => f.path),
  col("findings", "integer", (f) => f.count),
  // Several findings in bytes: their sum.
  col("value", "number", (f) => f.value),
  col("threshold", "number", (f) => f.threshold),
  col("unit", "text", (f) => f.unit),
  col("message", "text", (f) => f.message),
  col("action", "text", (f) => f.action),
];

export function findingsExport(
  db: Db,
  scope: WorkspaceScope,
  q: FindingsFilters,
  opts: PageOptions & { now?: Date } = {},
): CsvExport<FindingGroup> {
  return {
    filename: `findings-${utcDayOf(opts.now ?? new Date())}.csv`,
    columns: FINDING_COLUMNS,
    rows: findingGroupRows(db, scope, { ...q, now: opts.now }, opts),
  };
}

export const AGENT_WORKSPACE_COLUMNS: CsvColumn<AgentWorkspaceRow>[] = [
  col("workspace_id", "text", (r) => r.id),
  col("workspace", "text", (r) => r.name),
  col("owner", "text", (r) => r.owner),
  col("template", "text", (r) => r.template),
  col("bytes", "integer", (r) => r.bytes),
  col("roots", "integer", (r) => r.roots),
];

export function agentWorkspacesExport(
  db: Db,
  agent: string,
  opts: PageOptions & { now?: Date } = {},
): CsvExport<AgentWorkspaceRow> {
  return {
    filename: `agent-${agent}-workspaces-${utcDayOf(opts.now ?? new Date())}.csv`,
    columns: AGENT_WORKSPACE_COLUMNS,
    rows: agentWorkspaceRows(db, agent, opts),
  };
}

/**
 * The volumes-at-risk page's table: its columns, with the volume as df shows it and why it fills in full, each
 * list of what fills it one JSON array with exact figures (as the policies' CSV writes its requests).
 */
export const AT_RISK_COLUMNS: CsvColumn<AtRiskVolume>[] = [
  col("workspace_id", "text", (r) => r.workspace.id),
  col("workspace", "text", (r) => r.workspace.name),
  col("owner", "text", (r) => r.workspace.owner),
  // "Full in" as the page says it, then its figures: 0 days for a full volume, what it ran out of
  col("full_in", "text", (r) => fullInText(r.volume, r.daysUntilFull === 0 ? null : r.daysUntilFull)),
  col("days_until_full", "number", (r) => (r.daysUntilFull === null ? null : Math.round(r.daysUntilFull * 100) / 100)),
  col("full_by", "text", (r) => r.fullBy),
  col("forecast_full_at", "time", (r) => r.forecastFullAt),
  ...dfColumns<AtRiskVolume>((r) => r.volume),
  col("growth_bytes_per_day", "integer", (r) =>
    r.growthBytesPerDay === null ? null : Math.round(r.growthBytesPerDay),
  ),
  col("largest_roots", "text", (r) => JSON.stringify(r.why.largestRoots)),
  col("largest_folders", "text", (r) => JSON.stringify(r.why.homeFolders)),
  col("most_files_roots", "text", (r) => JSON.stringify(r.why.mostInodesRoots)),
  col("grew_7d_roots", "text", (r) => JSON.stringify(r.why.growingRoots)),
  col("grew_7d_outside_roots_bytes", "integer", (r) => r.why.outsideGrowthBytes),
];

/** Every row of the volumes-at-risk table within `days` (absent: the volume-filling rule's, as the page). */
export async function volumesAtRiskExport(
  db: Db,
  q: { days?: number },
  now = new Date(),
): Promise<CsvExport<AtRiskVolume>> {
  const rules = await getRules(db);
  const days = q.days ?? rules["volume-filling"].params.days;
  return {
    filename: `volumes-at-risk-${days}d-${utcDayOf(now)}.csv`,
    columns: AT_RISK_COLUMNS,
    rows: everyVolumeAtRisk(db, { rules, now, days }),
  };
}
