import "server-only";
import { and, asc, between, desc, eq, lt, sql } from "drizzle-orm";
import type { HomeUsage } from "@/lib/report-format/home";
import type { Persistence } from "@/lib/report-format/persistence";
import type { AgentRetention } from "@/lib/report-format/schema";
import { isoOrNull, type Day, type DayRange } from "@/lib/series";
import type { RootDayValue, RootDetail, RootRef, VolumeDay } from "@/lib/shaping/workspace-detail";
import { reports, rootLatest, workspaceDaily } from "../schema";
import { inScope, type WorkspaceScope } from "../scope";
import { rowsOf, type Db } from "../types";
import { change7dColumn, change7dJoin, change7dSince } from "./change-7d";
import { volumeUsed } from "./volume";
import { numOrNull, rowColumns, toRow, type RawRow, type RowContext, type WorkspaceRow } from "./workspace-row";

// The workspace page's panels, one read each (getWorkspaceDetail runs them together).

export type WorkspaceHead = WorkspaceRow & {
  firstSeenAt: string;
  lastSeenAt: string | null;
  lastReportId: string | null;
  /** The agents' own retention settings from the newest report; null when its reporter does not read them. */
  agentRetention: AgentRetention | null;
  /** The whole home from the newest report; null when its reporter does not measure it. */
  home: HomeUsage | null;
  /** Where the home and each root live, from the newest report; null when its reporter does not say. */
  persistence: Persistence | null;
};

type WorkspaceHeadRow = RawRow & {
  first_seen_at: Date | string;
  last_seen_at: Date | string | null;
  last_report_id: string | null;
  agent_retention: AgentRetention | null;
  home: HomeUsage | null;
  persistence: Persistence | null;
};

/**
 * The workspace's row (as the workspaces table shows it) and when it was first and last seen; null when unknown
 * or outside the scope.
 */
export async function workspaceHead(
  db: Db,
  scope: WorkspaceScope,
  id: string,
  ctx: RowContext,
): Promise<WorkspaceHead | null> {
  // The head and the roots' days below are SQL composed from the list's row columns and the 7-day change (and a
  // CTE whose cost was measured): they stay SQL through db.execute.
  const [head] = rowsOf<WorkspaceHeadRow>(
    await db.execute(sql`select ${rowColumns(ctx)}, ${change7dColumn}, w.first_seen_at, w.last_seen_at, w.last_report_id,
      w.agent_retention, w.home, w.persistence from workspaces w ${change7dJoin(change7dSince(ctx.now))} where w.id = ${id} and ${inScope(scope, sql`w.owner`)}`),
  );
  if (!head) return null;
  return {
    ...toRow(head, ctx),
    firstSeenAt: isoOrNull(head.first_seen_at)!,
    lastSeenAt: isoOrNull(head.last_seen_at),
    lastReportId: head.last_report_id,
    agentRetention: head.agent_retention,
    home: typeof head.home === "string" ? (JSON.parse(head.home) as HomeUsage) : head.home,
    persistence: head.persistence,
  };
}

/** A root's values in the range ("day bytes" pairs, null when it has none there) and its last value before it. */
type RootDaysRow = {
  key: string;
  agent: string | null;
  kind: string | null;
  days: string | null;
  start_agent: string | null;
  start_kind: string | null;
  start_bytes: number | string | null;
};

export type RootDays = {
  /** Each root's last value before the range (roots without one are left out). */
  start: (RootRef & { bytes: number })[];
  /** Each root's values in the range. */
  daily: RootDayValue[];
};

/**
 * Every root's daily values in the range and its last value before it. One row per root: its values in the
 * range as one list (the range's rows are read once and sent as a handful of rows, not one per root and day),
 * and its last value before the range, one index lookup per root (root_daily_workspace_root_day_idx). A root
 * that existed when the range began either exists now (root_latest) or was removed inside the range (its zero
 * row is there), so those keys are all that is needed: the cost follows the roots, not the length of history.
 */
export async function rootDays(db: Db, id: string, range: DayRange): Promise<RootDays> {
  const rows = rowsOf<RootDaysRow>(
    await db.execute(sql`with d as materialized (
        -- "day bytes,day bytes,...": building a JSON value per row cost four times the read itself. Unordered
        -- (days are looked up by day); a root's agent and kind do not change from day to day.
        select root_key, min(agent) as agent, min(kind) as kind,
          string_agg(to_char(day, 'YYYY-MM-DD') || ' ' || bytes::text, ',') as days
        from root_daily where workspace_id = ${id} and day between ${range.from}::date and ${range.to}::date
        group by root_key
      ), keys as (
        select root_key from root_latest where workspace_id = ${id} union select root_key from d
      )
      select keys.root_key as key, d.agent, d.kind, d.days, s.agent as start_agent, s.kind as start_kind,
        s.bytes as start_bytes
      from keys left join d on d.root_key = keys.root_key
      left join lateral (select agent, kind, bytes::float8 as bytes from root_daily
        where workspace_id = ${id} and root_key = keys.root_key and day < ${range.from}::date
        order by day desc limit 1) s on true`),
  );
  return {
    start: rows.flatMap((r) =>
      r.start_bytes === null
        ? []
        : [{ key: r.key, agent: r.start_agent!, kind: r.start_kind!, bytes: Number(r.start_bytes) }],
    ),
    daily: rows.flatMap((r) =>
      (r.days?.split(",") ?? []).map((v) => {
        const [day, bytes] = v.split(" ");
        return { key: r.key, agent: r.agent!, kind: r.kind!, day: day as Day, bytes: Number(bytes) };
      }),
    ),
  };
}

type VolumeDayRow = { used: number | null; avail: number | null };

const volumeDayColumns = {
  used: sql<number | null>`${volumeUsed("workspace_daily")}::float8`,
  avail: sql<number | null>`${workspaceDaily.volumeFreeBytes}::float8`,
};
const volumeDay = (r: VolumeDayRow) => ({ usedBytes: numOrNull(r.used), availBytes: numOrNull(r.avail) });

/** The volume's used and available space on each day of the range that has a report, and on the last day before it. */
export async function volumeDays(
  db: Db,
  id: string,
  range: DayRange,
): Promise<{ start: Omit<VolumeDay, "day"> | null; days: VolumeDay[] }> {
  const d = workspaceDaily;
  const [inRange, before] = await Promise.all([
    db
      .select({ day: sql<Day>`to_char(${d.day}, 'YYYY-MM-DD')`, ...volumeDayColumns })
      .from(d)
      .where(and(eq(d.workspaceId, id), between(d.day, range.from, range.to))),
    db
      .select(volumeDayColumns)
      .from(d)
      .where(and(eq(d.workspaceId, id), lt(d.day, range.from)))
      .orderBy(desc(d.day))
      .limit(1),
  ]);
  const start = before[0];
  return {
    start: start ? volumeDay(start) : null,
    days: inRange.map((r) => ({ day: r.day, ...volumeDay(r) })),
  };
}

/** The newest report's roots, largest first. */
export async function latestRoots(db: Db, id: string): Promise<RootDetail[]> {
  const t = rootLatest;
  const rows = await db
    .select({
      key: t.rootKey,
      agent: t.agent,
      kind: t.kind,
      path: t.path,
      bytes: t.bytes,
      apparentBytes: t.apparentBytes,
      files: t.files,
      dirs: t.dirs,
      oldestMtime: t.oldestMtime,
      newestMtime: t.newestMtime,
      orphaned: t.orphaned,
      unreadable: t.unreadable,
      categories: t.categories,
      ages: t.ages,
      largest: t.largest,
      leftovers: t.leftovers,
      collectedAt: t.collectedAt,
    })
    .from(rootLatest)
    .where(eq(rootLatest.workspaceId, id))
    .orderBy(desc(rootLatest.bytes), asc(rootLatest.rootKey));
  return rows.map((r) => ({
    ...r,
    oldestMtime: isoOrNull(r.oldestMtime),
    newestMtime: isoOrNull(r.newestMtime),
    collectedAt: isoOrNull(r.collectedAt)!,
  }));
}

export type ReportHistoryRow = {
  id: string;
  collectedAt: string;
  receivedAt: string;
  reporterVersion: string;
  scanMs: number;
  totalBytes: number;
  rootCount: number;
  errorCount: number;
  volumeTotalBytes: number | null;
  volumeFreeBytes: number | null;
};

/** The workspace's newest `limit` reports, newest first. */
export async function reportHistory(db: Db, id: string, limit: number): Promise<ReportHistoryRow[]> {
  const rows = await db
    .select({
      id: reports.id,
      collectedAt: reports.collectedAt,
      receivedAt: reports.receivedAt,
      reporterVersion: reports.reporterVersion,
      scanMs: reports.scanMs,
      totalBytes: reports.totalBytes,
      rootCount: reports.rootCount,
      errorCount: sql<number>`jsonb_array_length(${reports.errors})`,
      volumeTotalBytes: reports.volumeTotalBytes,
      volumeFreeBytes: reports.volumeFreeBytes,
    })
    .from(reports)
    .where(eq(reports.workspaceId, id))
    .orderBy(desc(reports.collectedAt))
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    collectedAt: isoOrNull(r.collectedAt)!,
    receivedAt: isoOrNull(r.receivedAt)!,
    scanMs: Number(r.scanMs),
    errorCount: Number(r.errorCount),
  }));
}
