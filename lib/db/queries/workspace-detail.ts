import "server-only";
import { sql } from "drizzle-orm";
import type { Finding } from "@/lib/findings/finding";
import type { AgeBreakdown, CategoryBreakdown, LargestEntry, LeftoverEntry } from "@/lib/report/schema";
import { eachDay, isoOrNull, resolveRange, type Day, type DayRange, type RangeParams } from "@/lib/series";
import {
  forecastLine,
  usageByRoot,
  volumeHistory,
  type RootDayValue,
  type RootRef,
  type VolumeHistoryPoint,
  type WorkspaceUsagePoint,
} from "@/lib/shaping/workspace-detail";
import { rowsOf, type Db } from "../types";
import { getRules, listFindings } from "./findings";
import { volumeUsed } from "./volume";
import { change7dColumn, change7dJoin, change7dSince } from "./change-7d";
import { numOrNull, rowColumns, toRow, type RawRow, type WorkspaceRow } from "./workspace-row";

export type { RootRef, VolumeHistoryPoint, WorkspaceUsagePoint };

const FORECAST_HORIZON_DAYS = 90;

export type RootDetail = RootRef & {
  path: string;
  /** Allocated bytes: `du -sB1` of the root's folder (a file hard-linked into two roots counts in the first). */
  bytes: number;
  apparentBytes: number;
  files: number;
  dirs: number;
  oldestMtime: string | null;
  newestMtime: string | null;
  orphaned: boolean;
  unreadable: number;
  categories: CategoryBreakdown;
  /** Age distribution: bytes and files per age bucket (upper bounds 1d, 7d, 30d, 90d, older). */
  ages: AgeBreakdown;
  largest: LargestEntry[];
  /** AgentAPI leftovers inside the root, already counted in its figures. */
  leftovers: LeftoverEntry[];
  collectedAt: string;
};

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

export type WorkspaceDetailParams = RangeParams & { now?: Date; reports?: number };

export type WorkspaceDetail = {
  workspace: WorkspaceRow & { firstSeenAt: string; lastSeenAt: string | null; lastReportId: string | null };
  range: DayRange;
  usage: {
    /** Every root that has a value in the range, largest (on the last day) first. */
    roots: RootRef[];
    /** One point per day of the range. */
    points: WorkspaceUsagePoint[];
  };
  /** The newest report's roots, largest first. */
  roots: RootDetail[];
  /** Largest entries of type "session" across all roots (Claude Code's largest sessions, ...), largest first. */
  largestSessions: (LargestEntry & { rootKey: string; agent: string })[];
  volume: {
    /** Used space and capacity at the end of each day of the range (carried forward; null before the first report). */
    history: VolumeHistoryPoint[];
    /** The least-squares fit over the last 14 days that ingest stored with the newest report. */
    forecast: {
      slopeBytesPerDay: number | null;
      fullAt: string | null;
      /** Projected used bytes per day from the last known day until full (at most 90 days ahead); empty when not growing. */
      points: { day: Day; usedBytes: number }[];
    };
  };
  findings: Finding[];
  /** Newest first. */
  reports: ReportHistoryRow[];
};

type LatestRow = {
  root_key: string; agent: string; kind: string; path: string; bytes: number; apparent_bytes: number; files: number;
  dirs: number; oldest_mtime: Date | string | null; newest_mtime: Date | string | null; orphaned: boolean;
  unreadable: number; categories: CategoryBreakdown | string; ages: AgeBreakdown | string;
  largest: LargestEntry[] | string; leftovers: LeftoverEntry[] | string; collected_at: Date | string;
};
type ReportRow = {
  id: string; collected_at: Date | string; received_at: Date | string; reporter_version: string; scan_ms: number;
  total_bytes: number; root_count: number; error_count: number; volume_total_bytes: number | null; volume_free_bytes: number | null;
};
type VolumeDayRow = { day: Day; used: number | null; avail: number | null };

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

// PGlite returns jsonb as text in some paths, node-postgres as objects.
const parseJson = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);

function toRootDetail(r: LatestRow): RootDetail {
  return {
    key: r.root_key,
    agent: r.agent,
    kind: r.kind,
    path: r.path,
    bytes: Number(r.bytes),
    apparentBytes: Number(r.apparent_bytes),
    files: Number(r.files),
    dirs: Number(r.dirs),
    oldestMtime: isoOrNull(r.oldest_mtime),
    newestMtime: isoOrNull(r.newest_mtime),
    orphaned: r.orphaned,
    unreadable: Number(r.unreadable),
    categories: parseJson(r.categories),
    ages: parseJson(r.ages),
    largest: parseJson(r.largest),
    leftovers: parseJson(r.leftovers),
    collectedAt: isoOrNull(r.collected_at)!,
  };
}

function toReportRow(r: ReportRow): ReportHistoryRow {
  return {
    id: r.id,
    collectedAt: isoOrNull(r.collected_at)!,
    receivedAt: isoOrNull(r.received_at)!,
    reporterVersion: r.reporter_version,
    scanMs: Number(r.scan_ms),
    totalBytes: Number(r.total_bytes),
    rootCount: Number(r.root_count),
    errorCount: Number(r.error_count),
    volumeTotalBytes: numOrNull(r.volume_total_bytes),
    volumeFreeBytes: numOrNull(r.volume_free_bytes),
  };
}

const volumeDay = (r: VolumeDayRow) => ({ usedBytes: numOrNull(r.used), availBytes: numOrNull(r.avail) });

/** Null when the workspace is unknown (the route answers 404). */
export async function getWorkspaceDetail(
  db: Db,
  id: string,
  params: WorkspaceDetailParams = {},
): Promise<WorkspaceDetail | null> {
  const now = params.now ?? new Date();
  const range = resolveRange(params, now);
  const days = eachDay(range.from, range.to);
  const ctx = { now, rules: await getRules(db) };
  const head = rowsOf<RawRow & { first_seen_at: Date | string; last_seen_at: Date | string | null; last_report_id: string | null }>(
    await db.execute(sql`select ${rowColumns(ctx)}, ${change7dColumn}, w.first_seen_at, w.last_seen_at, w.last_report_id
      from workspaces w ${change7dJoin(change7dSince(now), "few")} where w.id = ${id}`),
  )[0];
  if (!head) return null;

  const inRange = sql`day between ${range.from}::date and ${range.to}::date`;
  const volumeDayColumns = sql`${volumeUsed("workspace_daily")}::float8 as used, volume_free_bytes::float8 as avail`;
  const [rootDays, wsDaily, wsStart, latest, reportRows, findings] = await Promise.all([
    // One row per root: its values in the range as one list (the range's rows are read once and
    // sent as a handful of rows, not one per root and day), and its last value before the range, one index
    // lookup per root (root_daily_workspace_root_day_idx). A root that existed when the range began either exists now (root_latest) or
    // was removed inside the range (its zero row is there), so those keys are all that is needed: the cost
    // follows the roots, not the length of history.
    db.execute(sql`with d as materialized (
        -- "day bytes,day bytes,...": building a JSON value per row cost four times the read itself. Unordered
        -- (days are looked up by day); a root's agent and kind do not change from day to day.
        select root_key, min(agent) as agent, min(kind) as kind,
          string_agg(to_char(day, 'YYYY-MM-DD') || ' ' || bytes::text, ',') as days
        from root_daily where workspace_id = ${id} and ${inRange} group by root_key
      ), keys as (
        select root_key from root_latest where workspace_id = ${id} union select root_key from d
      )
      select keys.root_key as key, d.agent, d.kind, d.days, s.agent as start_agent, s.kind as start_kind,
        s.bytes as start_bytes
      from keys left join d on d.root_key = keys.root_key
      left join lateral (select agent, kind, bytes::float8 as bytes from root_daily
        where workspace_id = ${id} and root_key = keys.root_key and day < ${range.from}::date
        order by day desc limit 1) s on true`),
    db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, ${volumeDayColumns}
      from workspace_daily where workspace_id = ${id} and ${inRange}`),
    db.execute(sql`select ${volumeDayColumns}
      from workspace_daily where workspace_id = ${id} and day < ${range.from}::date order by day desc limit 1`),
    db.execute(sql`select root_key, agent, kind, path, bytes::float8 as bytes, apparent_bytes::float8 as apparent_bytes,
        files::float8 as files, dirs::float8 as dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages,
        largest, leftovers, collected_at
      from root_latest where workspace_id = ${id} order by bytes desc, root_key`),
    db.execute(sql`select id, collected_at, received_at, reporter_version, scan_ms, total_bytes::float8 as total_bytes,
        root_count, jsonb_array_length(errors) as error_count, volume_total_bytes::float8 as volume_total_bytes,
        volume_free_bytes::float8 as volume_free_bytes
      from reports where workspace_id = ${id} order by collected_at desc limit ${params.reports ?? 50}`),
    listFindings(db, { workspace: id, now, rules: ctx.rules }),
  ]);

  const perRoot = rowsOf<RootDaysRow>(rootDays);
  const dailyRows: RootDayValue[] = perRoot.flatMap((r) =>
    (r.days?.split(",") ?? []).map((v) => {
      const [day, bytes] = v.split(" ");
      return { key: r.key, agent: r.agent!, kind: r.kind!, day: day as Day, bytes: Number(bytes) };
    }),
  );
  const wsRows = rowsOf<VolumeDayRow>(wsDaily);
  const reportedDays = new Set<Day>([...dailyRows.map((r) => r.day), ...wsRows.map((r) => r.day)]);
  const usage = usageByRoot(
    days,
    perRoot.flatMap((r) =>
      r.start_bytes === null ? [] : [{ key: r.key, agent: r.start_agent!, kind: r.start_kind!, bytes: Number(r.start_bytes) }],
    ),
    dailyRows,
    reportedDays,
  );
  const startVolume = rowsOf<VolumeDayRow>(wsStart)[0];
  const history = volumeHistory(
    days,
    wsRows.map((r) => ({ day: r.day, ...volumeDay(r) })),
    startVolume ? volumeDay(startVolume) : null,
    reportedDays,
  );

  const roots = rowsOf<LatestRow>(latest).map(toRootDetail);
  const largestSessions = roots
    .flatMap((r) => r.largest.filter((e) => e.type === "session").map((e) => ({ ...e, rootKey: r.key, agent: r.agent })))
    .sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path))
    .slice(0, 20);

  const workspace = toRow(head, ctx);
  const v = workspace.volume;
  // The fit ingest stored with the newest report (ingest_reports: least squares over the last FORECAST_DAYS
  // days, lib/db/queries/ingest.ts).
  const slope = workspace.growthBytesPerDay;
  return {
    workspace: {
      ...workspace,
      firstSeenAt: isoOrNull(head.first_seen_at)!,
      lastSeenAt: isoOrNull(head.last_seen_at),
      lastReportId: head.last_report_id,
    },
    range,
    usage,
    roots,
    largestSessions,
    volume: {
      history,
      forecast: {
        slopeBytesPerDay: slope,
        fullAt: workspace.forecastFullAt,
        points: forecastLine({
          slopeBytesPerDay: slope,
          usedBytes: v?.usedBytes ?? null,
          capacityBytes: v ? v.usedBytes + v.availBytes : null,
          lastCollectedAt: workspace.lastCollectedAt,
          horizonDays: FORECAST_HORIZON_DAYS,
        }),
      },
    },
    findings: findings.findings,
    reports: rowsOf<ReportRow>(reportRows).map(toReportRow),
  };
}
