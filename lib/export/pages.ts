import "server-only";
import { col, csvTable, type CsvTable, type SomeCsvExport } from "@/lib/csv/columns";
import { getAgentDetail, type AgentDetail } from "@/lib/db/queries/agents";
import { getModuleDetail } from "@/lib/db/queries/modules";
import { getWorkspaceDetail, type WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import type { Db } from "@/lib/db/types";
import { NotFoundError } from "@/lib/errors";
import { AGE_BUCKETS } from "@/lib/report-format/constants";
import type { RangeParams } from "@/lib/series";
import {
  ageRows,
  categoryTotals,
  type AgeRow,
  LARGEST_SHOWN,
  largestEntries,
  volumeRows,
} from "@/lib/shaping/workspace-tables";
import { homeSplit } from "@/lib/shaping/home-breakdown";
import type { AgentTable, WorkspaceTable } from "@/lib/validations/export";
import type { WorkspaceScope } from "@/lib/db/scope";

// The agent page's and the workspace page's charts and tables, exported as the page shows them: built by the
// page's own query and shaping functions, bounded by one agent's or one workspace's latest data and range.
// (The agent's full list of workspaces and a workspace's history are keyset-read exports: lists.ts, usage.ts.)

const AGENT_TABLES: { [T in Exclude<AgentTable, "workspaces">]: (d: AgentDetail) => CsvTable } = {
  series: (d) =>
    csvTable(d.series, [
      col("day", "day", (r) => r.day),
      col("bytes", "integer", (r) => r.bytes),
      col("roots", "integer", (r) => r.roots),
    ]),
  kinds: (d) =>
    csvTable(d.byKind, [
      col("kind", "text", (r) => r.kind),
      col("bytes", "integer", (r) => r.bytes),
      col("roots", "integer", (r) => r.roots),
    ]),
  distribution: (d) =>
    csvTable(d.distribution, [
      col("min_bytes", "integer", (r) => r.minBytes),
      col("max_bytes", "integer", (r) => r.maxBytes),
      col("workspaces", "integer", (r) => r.count),
    ]),
};

export async function agentExport(
  db: Db,
  agent: string,
  table: Exclude<AgentTable, "workspaces">,
  range: RangeParams,
  now = new Date(),
): Promise<SomeCsvExport> {
  const detail = await getAgentDetail(db, agent, { ...range, now });
  if (!detail) throw new NotFoundError(`No agent "${agent}" is known or has reported data.`);
  const span = table === "series" ? `${detail.range.from}-${detail.range.to}` : detail.range.to;
  return { filename: `agent-${agent}-${table}-${span}.csv`, ...AGENT_TABLES[table](detail) };
}

/** The module page's chart: the module's fleet total per day of the range. */
export async function moduleExport(db: Db, key: string, range: RangeParams, now = new Date()): Promise<SomeCsvExport> {
  const detail = await getModuleDetail(db, key, { ...range, now });
  if (!detail) throw new NotFoundError(`No workspace holds or has held the module "${key}".`);
  return {
    filename: `module-${key.replace("/", "-")}-series-${detail.range.from}-${detail.range.to}.csv`,
    ...csvTable(detail.series, [col("day", "day", (r) => r.day), col("bytes", "integer", (r) => r.bytes)]),
  };
}

const entryColumns = <
  R extends { rootKey: string; agent: string; path: string; type: string; bytes: number; mtime: string },
>() => [
  col<R>("root", "text", (r) => r.rootKey),
  col<R>("agent", "text", (r) => r.agent),
  col<R>("path", "text", (r) => r.path),
  col<R>("type", "text", (r) => r.type),
  col<R>("bytes", "integer", (r) => r.bytes),
  col<R>("modified_at", "time", (r) => r.mtime),
];

const WORKSPACE_TABLES: { [T in WorkspaceTable]: (d: WorkspaceDetail) => CsvTable } = {
  roots: (d) =>
    csvTable(d.roots, [
      col("root", "text", (r) => r.key),
      col("agent", "text", (r) => r.agent),
      col("kind", "text", (r) => r.kind),
      col("path", "text", (r) => r.path),
      col("bytes", "integer", (r) => r.bytes),
      col("apparent_bytes", "integer", (r) => r.apparentBytes),
      col("files", "integer", (r) => r.files),
      col("dirs", "integer", (r) => r.dirs),
      col("oldest_mtime", "time", (r) => r.oldestMtime),
      col("newest_mtime", "time", (r) => r.newestMtime),
      col("orphaned", "boolean", (r) => r.orphaned),
      col("unreadable", "integer", (r) => r.unreadable),
      col("leftovers", "integer", (r) => r.leftovers.length),
      col("collected_at", "time", (r) => r.collectedAt),
    ]),
  categories: (d) =>
    csvTable(categoryTotals(d.roots), [
      col("category", "text", (r) => r.category),
      col("bytes", "integer", (r) => r.bytes),
      col("files", "integer", (r) => r.files),
    ]),
  sessions: (d) => csvTable(d.largestSessions.slice(0, LARGEST_SHOWN), entryColumns()),
  entries: (d) => csvTable(largestEntries(d.roots, LARGEST_SHOWN), entryColumns()),
  ages: (d) =>
    csvTable(ageRows(d.roots), [
      col("root", "text", (r) => r.root),
      ...AGE_BUCKETS.map((b) => col<AgeRow>(`bytes_${b}`, "integer", (r) => r[b])),
    ]),
  volume: (d) =>
    csvTable(volumeRows(d.volume, d.workspace.volume), [
      col("day", "day", (r) => r.day),
      col("used_bytes", "integer", (r) => r.used),
      col("forecast_used_bytes", "integer", (r) => (r.forecast === null ? null : Math.round(r.forecast))),
      col("capacity_bytes", "integer", (r) => r.capacity),
    ]),
  reports: (d) =>
    csvTable(d.reports, [
      col("report_id", "text", (r) => r.id),
      col("collected_at", "time", (r) => r.collectedAt),
      col("received_at", "time", (r) => r.receivedAt),
      col("total_bytes", "integer", (r) => r.totalBytes),
      col("roots", "integer", (r) => r.rootCount),
      col("volume_size_bytes", "integer", (r) => r.volumeTotalBytes),
      col("volume_avail_bytes", "integer", (r) => r.volumeFreeBytes),
      col("scan_ms", "number", (r) => r.scanMs),
      col("errors", "integer", (r) => r.errorCount),
      col("reporter_version", "text", (r) => r.reporterVersion),
    ]),
  // The "where the bytes go" panel: its lines, and the home's largest folders (none from reporters that do not
  // measure the home).
  home: (d) =>
    csvTable(d.workspace.home ? homeSplit(d.workspace.volume, d.workspace.home).lines : [], [
      col("part", "text", (r) => r.key),
      col("label", "text", (r) => r.label),
      col("bytes", "integer", (r) => r.bytes),
    ]),
  "home-folders": (d) =>
    csvTable(d.workspace.home?.largest ?? [], [
      col("path", "text", (r) => r.path),
      col("kind", "text", (r) => r.kind ?? null),
      col("bytes", "integer", (r) => r.bytes),
    ]),
};

export async function workspaceExport(
  db: Db,
  scope: WorkspaceScope,
  id: string,
  table: WorkspaceTable,
  range: RangeParams,
  now = new Date(),
): Promise<SomeCsvExport> {
  const detail = await getWorkspaceDetail(db, scope, id, { ...range, now });
  if (!detail) throw new NotFoundError(`No workspace "${id}".`);
  const span = table === "volume" ? `${detail.range.from}-${detail.range.to}` : detail.range.to;
  return { filename: `workspace-${detail.workspace.name}-${table}-${span}.csv`, ...WORKSPACE_TABLES[table](detail) };
}
