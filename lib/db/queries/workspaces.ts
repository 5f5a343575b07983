import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "../types";
import type { Finding, WorkspaceRef } from "@/lib/findings/rules";
import type { AgeBreakdown, CategoryBreakdown } from "../schema";
import type { LargestEntry } from "@/lib/report/schema";
import { listFindings } from "./findings";
import {
  addDaysTo,
  eachDay,
  fillCarryForward,
  isoOrNull,
  resolveRange,
  utcDayOf,
  type Day,
  type DayRange,
  type RangeParams,
} from "@/lib/series";

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const SPARKLINE_DAYS = 30;
const SILENT_HOURS = 24;
const FORECAST_HORIZON_DAYS = 90;

/** Columns of a workspace row, for listWorkspaces and getWorkspaceDetail. */
const rowColumns = sql.raw(`w.id, w.name, w.owner, w.template, w.agent_name, w.total_bytes::float8 as total_bytes,
  w.root_count, w.largest_agent, w.largest_agent_bytes::float8 as largest_agent_bytes,
  w.volume_total_bytes::float8 as volume_total_bytes, w.volume_free_bytes::float8 as volume_free_bytes,
  w.growth_bytes_per_day::float8 as growth_bytes_per_day, w.forecast_full_at, w.last_collected_at`);

type RawRow = {
  id: string; name: string; owner: string; template: string | null; agent_name: string | null; total_bytes: number;
  root_count: number; largest_agent: string | null; largest_agent_bytes: number | null; volume_total_bytes: number | null;
  volume_free_bytes: number | null; growth_bytes_per_day: number | null; forecast_full_at: Date | string | null;
  last_collected_at: Date | string | null;
};

function toRow(r: RawRow, now: Date, change7dBytes: number | null): WorkspaceRow {
  const vt = numOrNull(r.volume_total_bytes);
  const vf = numOrNull(r.volume_free_bytes);
  const full = r.forecast_full_at === null ? null : new Date(r.forecast_full_at);
  const last = r.last_collected_at === null ? null : new Date(r.last_collected_at);
  return {
    id: r.id,
    name: r.name,
    owner: r.owner,
    template: r.template,
    agentName: r.agent_name,
    totalBytes: Number(r.total_bytes),
    rootCount: Number(r.root_count),
    change7dBytes,
    largestAgent: r.largest_agent,
    largestAgentBytes: numOrNull(r.largest_agent_bytes),
    volumeTotalBytes: vt,
    volumeFreeBytes: vf,
    volumeUsedPercent: vt && vf !== null ? ((vt - vf) / vt) * 100 : null,
    growthBytesPerDay: numOrNull(r.growth_bytes_per_day),
    forecastFullAt: full ? full.toISOString() : null,
    daysUntilFull: full ? (full.getTime() - now.getTime()) / 86_400_000 : null,
    lastCollectedAt: last ? last.toISOString() : null,
    silent: !last || now.getTime() - last.getTime() > SILENT_HOURS * 3_600_000,
  };
}

/** Daily totals of `ids` over `days`, carried forward from the last total before the first day. */
async function dailyTotals(db: Db, ids: string[], days: Day[]): Promise<Map<string, (number | null)[]>> {
  const out = new Map<string, (number | null)[]>();
  if (ids.length === 0) return out;
  const from = days[0];
  const to = days[days.length - 1];
  const rows = rowsOf<{ id: string; day: Day | null; bytes: number | null }>(
    await db.execute(sql`select workspace_id as id, to_char(day, 'YYYY-MM-DD') as day, bytes::float8 as bytes
        from workspace_daily where workspace_id = any(${sql.param(ids)}::text[]) and day between ${from}::date and ${to}::date
      union all
      select i.id, null, (select d.bytes::float8 from workspace_daily d where d.workspace_id = i.id and d.day < ${from}::date
          order by d.day desc limit 1)
        from unnest(${sql.param(ids)}::text[]) as i(id)`),
  );
  const byWs = new Map<string, { start: number | null; values: Map<Day, number> }>();
  for (const id of ids) byWs.set(id, { start: null, values: new Map() });
  for (const r of rows) {
    const e = byWs.get(r.id)!;
    if (r.day === null) e.start = numOrNull(r.bytes);
    else e.values.set(r.day, Number(r.bytes));
  }
  for (const [id, e] of byWs) out.set(id, fillCarryForward(days, e.values, e.start).map((p) => p.value));
  return out;
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}


export const WORKSPACE_SORT_COLUMNS = [
  "name",
  "owner",
  "template",
  "total",
  "change7d",
  "largestAgent",
  "volumeUsed",
  "daysUntilFull",
  "lastReport",
] as const;
export type WorkspaceSortColumn = (typeof WORKSPACE_SORT_COLUMNS)[number];

/** Query parameters of GET /api/v1/workspaces. */
export const workspaceListQuery = z.object({
  q: z.string().trim().max(200).optional(),
  owner: z.string().max(200).optional(),
  template: z.string().max(200).optional(),
  /** Workspaces having at least one root of this agent. */
  agent: z.string().max(100).optional(),
  sort: z.enum(WORKSPACE_SORT_COLUMNS).default("total"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type WorkspaceListParams = z.input<typeof workspaceListQuery> & { now?: Date };

export type WorkspaceRow = WorkspaceRef & {
  template: string | null;
  agentName: string | null;
  totalBytes: number;
  rootCount: number;
  /** totalBytes minus the workspace's daily total on or before 7 days ago; null without such a day. */
  change7dBytes: number | null;
  largestAgent: string | null;
  largestAgentBytes: number | null;
  volumeTotalBytes: number | null;
  volumeFreeBytes: number | null;
  /** 0–100, null without volume data. */
  volumeUsedPercent: number | null;
  growthBytesPerDay: number | null;
  forecastFullAt: string | null;
  /** Days from now until forecastFullAt (fractional, may be negative); null when not growing. */
  daysUntilFull: number | null;
  lastCollectedAt: string | null;
  /** No report for over 24 hours, or never reported. */
  silent: boolean;
};

export type WorkspaceListRow = WorkspaceRow & {
  /** Daily totals aligned with `WorkspaceList.sparklineDays`: carried forward over days without a report, null before the first. */
  sparkline: (number | null)[];
};

export type WorkspaceList = {
  rows: WorkspaceListRow[];
  /** Rows matching the filters, over all pages. */
  total: number;
  page: number;
  pageSize: number;
  sort: WorkspaceSortColumn;
  dir: "asc" | "desc";
  /** The last 30 days (UTC), oldest first. */
  sparklineDays: Day[];
};

/**
 * One page of the workspaces table: filters, sort and paging in SQL over the workspaces table (denormalised
 * totals), then the page's sparklines in one query on workspace_daily.
 */
export async function listWorkspaces(db: Db, params: WorkspaceListParams = {}): Promise<WorkspaceList> {
  const p = workspaceListQuery.parse(params);
  const now = params.now ?? new Date();
  const today = utcDayOf(now);
  const since = addDaysTo(today, -7);
  const sparklineDays = eachDay(addDaysTo(today, -(SPARKLINE_DAYS - 1)), today);

  const where: SQL[] = [sql`true`];
  if (p.q) {
    const pat = likePattern(p.q);
    where.push(sql`(w.name ilike ${pat} or w.owner ilike ${pat} or w.template ilike ${pat} or w.id ilike ${pat})`);
  }
  if (p.owner) where.push(sql`w.owner = ${p.owner}`);
  if (p.template) where.push(sql`w.template = ${p.template}`);
  if (p.agent) where.push(sql`w.id in (select workspace_id from root_latest where agent = ${p.agent})`);

  const change = sql`(w.total_bytes - c.bytes)`;
  const sortExpr: Record<WorkspaceSortColumn, SQL> = {
    name: sql`w.name`,
    owner: sql`w.owner`,
    template: sql`w.template`,
    total: sql`w.total_bytes`,
    change7d: change,
    largestAgent: sql`w.largest_agent`,
    volumeUsed: sql`(w.volume_total_bytes - w.volume_free_bytes)::float8 / nullif(w.volume_total_bytes, 0)`,
    daysUntilFull: sql`w.forecast_full_at`,
    lastReport: sql`w.last_collected_at`,
  };
  const dir = p.dir === "asc" ? sql`asc` : sql`desc`;
  // The 7-day change needs a lookup per workspace: only joined for every row when the table is sorted by it.
  const lateral =
    p.sort === "change7d"
      ? sql`left join lateral (select d.bytes from workspace_daily d where d.workspace_id = w.id and d.day <= ${since}::date
          order by d.day desc limit 1) c on true`
      : sql``;
  const rows = rowsOf<RawRow & { total: number }>(
    await db.execute(sql`select ${rowColumns}, count(*) over () as total from workspaces w ${lateral}
      where ${sql.join(where, sql` and `)}
      order by ${sortExpr[p.sort]} ${dir} nulls last, w.id ${dir}
      limit ${p.pageSize} offset ${(p.page - 1) * p.pageSize}`),
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (rows.length === 0 && p.page > 1) {
    const c = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from workspaces w where ${sql.join(where, sql` and `)}`),
    );
    total = Number(c[0].n);
  }
  const ids = rows.map((r) => r.id);
  const spark = await dailyTotals(db, ids, sparklineDays);
  const sinceIndex = sparklineDays.indexOf(since);
  return {
    rows: rows.map((r) => {
      const line = spark.get(r.id) ?? sparklineDays.map(() => null);
      const before = line[sinceIndex];
      return { ...toRow(r, now, before === null ? null : Number(r.total_bytes) - before), sparkline: line };
    }),
    total,
    page: p.page,
    pageSize: p.pageSize,
    sort: p.sort,
    dir: p.dir,
    sparklineDays,
  };
}

export type RootRef = { key: string; agent: string; kind: string };

export type WorkspaceUsagePoint = {
  day: Day;
  /** Bytes per root key at the end of the day; roots that did not exist yet are absent. */
  values: Record<string, number>;
  total: number;
  /**
   * False when the workspace sent no report that day: values are carried forward from the last day that had
   * one (draw such days dashed or hatched). Days before the first report have no values and total 0.
   */
  reported: boolean;
};

export type RootDetail = RootRef & {
  path: string;
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
    totalBytes: number | null;
    freeBytes: number | null;
    usedBytes: number | null;
    usedPercent: number | null;
    /** Used bytes at the end of each day of the range (carried forward; null before the first report). */
    history: { day: Day; usedBytes: number | null; totalBytes: number | null; reported: boolean }[];
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

/** Null when the workspace is unknown (the route answers 404). */
export async function getWorkspaceDetail(
  db: Db,
  id: string,
  params: WorkspaceDetailParams = {},
): Promise<WorkspaceDetail | null> {
  const now = params.now ?? new Date();
  const range = resolveRange(params, now);
  const days = eachDay(range.from, range.to);
  const head = rowsOf<RawRow & { first_seen_at: Date | string; last_seen_at: Date | string | null; last_report_id: string | null }>(
    await db.execute(sql`select ${rowColumns}, w.first_seen_at, w.last_seen_at, w.last_report_id
      from workspaces w where w.id = ${id}`),
  )[0];
  if (!head) return null;

  const [rootDaily, rootStart, wsDaily, wsStart, latest, reportRows, findings, change] = await Promise.all([
    db.execute(sql`select root_key, agent, kind, to_char(day, 'YYYY-MM-DD') as day, bytes::float8 as bytes
      from root_daily where workspace_id = ${id} and day between ${range.from}::date and ${range.to}::date`),
    // Each root's last value before the range, one primary-key lookup per root. A root that existed when the
    // range began either exists now (root_latest) or was removed inside the range (its zero row is there), so
    // those keys are all that is needed: the cost follows the roots, not the length of history.
    db.execute(sql`with keys(k) as (
        select root_key from root_latest where workspace_id = ${id}
        union
        select root_key from root_daily where workspace_id = ${id} and day between ${range.from}::date and ${range.to}::date
      )
      select d.root_key, d.agent, d.kind, d.bytes::float8 as bytes from keys
      cross join lateral (select root_key, agent, kind, bytes from root_daily
        where workspace_id = ${id} and root_key = keys.k and day < ${range.from}::date
        order by day desc limit 1) d`),
    db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, bytes::float8 as bytes,
        volume_total_bytes::float8 as volume_total_bytes, volume_free_bytes::float8 as volume_free_bytes
      from workspace_daily where workspace_id = ${id} and day between ${range.from}::date and ${range.to}::date`),
    db.execute(sql`select bytes::float8 as bytes, volume_total_bytes::float8 as volume_total_bytes,
        volume_free_bytes::float8 as volume_free_bytes
      from workspace_daily where workspace_id = ${id} and day < ${range.from}::date order by day desc limit 1`),
    db.execute(sql`select root_key, agent, kind, path, bytes::float8 as bytes, apparent_bytes::float8 as apparent_bytes,
        files::float8 as files, dirs::float8 as dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages,
        largest, collected_at
      from root_latest where workspace_id = ${id} order by bytes desc, root_key`),
    db.execute(sql`select id, collected_at, received_at, reporter_version, scan_ms, total_bytes::float8 as total_bytes,
        root_count, jsonb_array_length(errors) as error_count, volume_total_bytes::float8 as volume_total_bytes,
        volume_free_bytes::float8 as volume_free_bytes
      from reports where workspace_id = ${id} order by collected_at desc limit ${params.reports ?? 50}`),
    listFindings(db, { workspace: id, now }),
    db.execute(sql`select bytes::float8 as bytes from workspace_daily where workspace_id = ${id}
      and day <= ${addDaysTo(utcDayOf(now), -7)}::date order by day desc limit 1`),
  ]);

  // Usage by root: each root's own daily values, carried forward from its last value before the range.
  type RootDay = { root_key: string; agent: string; kind: string; day: Day; bytes: number };
  const perRoot = new Map<string, { ref: RootRef; start: number | null; values: Map<Day, number> }>();
  const entry = (r: { root_key: string; agent: string; kind: string }) => {
    if (!perRoot.has(r.root_key)) perRoot.set(r.root_key, { ref: { key: r.root_key, agent: r.agent, kind: r.kind }, start: null, values: new Map() });
    return perRoot.get(r.root_key)!;
  };
  for (const r of rowsOf<Omit<RootDay, "day">>(rootStart)) entry(r).start = Number(r.bytes);
  const reportedDays = new Set<Day>();
  for (const r of rowsOf<RootDay>(rootDaily)) {
    entry(r).values.set(r.day, Number(r.bytes));
    reportedDays.add(r.day);
  }
  const wsRows = rowsOf<{ day: Day; bytes: number; volume_total_bytes: number | null; volume_free_bytes: number | null }>(wsDaily);
  for (const r of wsRows) reportedDays.add(r.day);
  const filled = [...perRoot.values()]
    .map((e) => ({ ref: e.ref, points: fillCarryForward(days, e.values, e.start) }))
    .filter((e) => e.points.some((pt) => pt.value !== null && pt.value !== 0));
  const lastOf = (e: (typeof filled)[number]) => e.points[e.points.length - 1].value ?? 0;
  filled.sort((a, b) => lastOf(b) - lastOf(a) || a.ref.key.localeCompare(b.ref.key));
  const points: WorkspaceUsagePoint[] = days.map((day, i) => {
    const values: Record<string, number> = {};
    let total = 0;
    for (const e of filled) {
      const v = e.points[i].value;
      if (v === null) continue;
      values[e.ref.key] = v;
      total += v;
    }
    return { day, values, total, reported: reportedDays.has(day) };
  });

  // Volume: used bytes per day, carried forward.
  const startVol = rowsOf<{ volume_total_bytes: number | null; volume_free_bytes: number | null }>(wsStart)[0];
  const usedOf = (r?: { volume_total_bytes: number | null; volume_free_bytes: number | null }) =>
    r && r.volume_total_bytes !== null && r.volume_free_bytes !== null ? Number(r.volume_total_bytes) - Number(r.volume_free_bytes) : null;
  const totalOf = (r?: { volume_total_bytes: number | null }) => (r && r.volume_total_bytes !== null ? Number(r.volume_total_bytes) : null);
  const usedByDay = new Map<Day, number>();
  const volTotalByDay = new Map<Day, number>();
  for (const r of wsRows) {
    const u = usedOf(r);
    if (u !== null) usedByDay.set(r.day, u);
    const t = totalOf(r);
    if (t !== null) volTotalByDay.set(r.day, t);
  }
  const usedFilled = fillCarryForward(days, usedByDay, usedOf(startVol));
  const totalFilled = fillCarryForward(days, volTotalByDay, totalOf(startVol));
  const history = days.map((day, i) => ({
    day,
    usedBytes: usedFilled[i].value,
    totalBytes: totalFilled[i].value,
    reported: reportedDays.has(day),
  }));

  const vt = numOrNull(head.volume_total_bytes);
  const vf = numOrNull(head.volume_free_bytes);
  const usedNow = vt !== null && vf !== null ? vt - vf : null;
  // The fit ingest stored with the newest report (least squares over the last 14 days, ingest_report).
  const slope = numOrNull(head.growth_bytes_per_day);
  const lastT = head.last_collected_at === null ? null : new Date(head.last_collected_at).getTime();
  const fullAt = head.forecast_full_at === null ? null : new Date(head.forecast_full_at);
  const forecastPoints: { day: Day; usedBytes: number }[] = [];
  if (slope !== null && slope > 0 && usedNow !== null && vt !== null && lastT !== null) {
    const lastDay = utcDayOf(lastT);
    for (let i = 0; i <= FORECAST_HORIZON_DAYS; i++) {
      const v = Math.min(vt, usedNow + slope * i);
      forecastPoints.push({ day: addDaysTo(lastDay, i), usedBytes: v });
      if (v >= vt) break;
    }
  }

  type LatestRow = {
    root_key: string; agent: string; kind: string; path: string; bytes: number; apparent_bytes: number; files: number;
    dirs: number; oldest_mtime: Date | string | null; newest_mtime: Date | string | null; orphaned: boolean;
    unreadable: number; categories: CategoryBreakdown | string; ages: AgeBreakdown | string;
    largest: LargestEntry[] | string; collected_at: Date | string;
  };
  const parseJson = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);
  const roots: RootDetail[] = rowsOf<LatestRow>(latest).map((r) => ({
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
    collectedAt: isoOrNull(r.collected_at)!,
  }));
  const largestSessions = roots
    .flatMap((r) => r.largest.filter((e) => e.type === "session").map((e) => ({ ...e, rootKey: r.key, agent: r.agent })))
    .sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path))
    .slice(0, 20);

  const before7 = rowsOf<{ bytes: number }>(change)[0];
  return {
    workspace: {
      ...toRow(head, now, before7 ? Number(head.total_bytes) - Number(before7.bytes) : null),
      firstSeenAt: isoOrNull(head.first_seen_at)!,
      lastSeenAt: isoOrNull(head.last_seen_at),
      lastReportId: head.last_report_id,
    },
    range,
    usage: { roots: filled.map((e) => e.ref), points },
    roots,
    largestSessions,
    volume: {
      totalBytes: vt,
      freeBytes: vf,
      usedBytes: usedNow,
      usedPercent: vt && usedNow !== null ? (usedNow / vt) * 100 : null,
      history,
      forecast: { slopeBytesPerDay: slope, fullAt: fullAt ? fullAt.toISOString() : null, points: forecastPoints },
    },
    findings: findings.findings,
    reports: rowsOf<{
      id: string; collected_at: Date | string; received_at: Date | string; reporter_version: string; scan_ms: number;
      total_bytes: number; root_count: number; error_count: number; volume_total_bytes: number | null; volume_free_bytes: number | null;
    }>(reportRows).map((r) => ({
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
    })),
  };
}
