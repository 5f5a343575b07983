import { sql } from "drizzle-orm";
import type { Report } from "@/lib/report/schema";
import { reports, workspaces } from "../schema";
import type { Db } from "../types";
import { eq } from "drizzle-orm";

/** A root's level as a roll-up needs it. */
export type RootLevel = { key: string; agent: string; kind: string; bytes: number };
export type FleetDelta = { day: string; agent: string; kind: string; shard: number; bytes: number; roots: number };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Inserts the report's own row; false when a report with this id is already stored. */
export async function insertReportRow(
  db: Db,
  r: Report,
  receivedAt: Date,
  totalBytes: number,
): Promise<boolean> {
  const inserted = await db
    .insert(reports)
    .values({
      id: r.id,
      workspaceId: r.workspace.id,
      collectedAt: new Date(r.collectedAt),
      receivedAt,
      reporterVersion: r.reporter.version,
      scanMs: r.reporter.scanMs,
      totalBytes,
      rootCount: r.roots.length,
      volumeTotalBytes: r.volume?.totalBytes ?? null,
      volumeFreeBytes: r.volume?.freeBytes ?? null,
      errors: r.errors ?? [],
    })
    .onConflictDoNothing({ target: reports.id })
    .returning({ id: reports.id });
  return inserted.length > 0;
}

export async function reportOwner(db: Db, reportId: string): Promise<string | null> {
  const rows = await db.select({ ws: reports.workspaceId }).from(reports).where(eq(reports.id, reportId));
  return rows[0]?.ws ?? null;
}

/** Locks the workspace row for the rest of the transaction, so reports of one workspace apply one at a time. */
export async function lockWorkspace(db: Db, workspaceId: string): Promise<{ lastCollectedAt: Date | null } | null> {
  const rows = await db
    .select({ lastCollectedAt: workspaces.lastCollectedAt })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for("update");
  return rows[0] ?? null;
}

export async function latestLevels(db: Db, workspaceId: string): Promise<RootLevel[]> {
  return rowsOf<RootLevel>(
    await db.execute(sql`select root_key as key, agent, kind, bytes::float8 as bytes
      from root_latest where workspace_id = ${workspaceId}`),
  );
}

/** For a report that arrives after newer ones: the roots of the report before it, and the day of the one after. */
export async function neighbours(
  db: Db,
  workspaceId: string,
  collectedAt: string,
): Promise<{ previous: RootLevel[]; nextDay: string | null }> {
  const previous = rowsOf<RootLevel>(
    await db.execute(sql`select u.root_key as key, u.agent, u.kind, u.bytes::float8 as bytes
      from root_usage u
      where u.report_id = (select id from reports where workspace_id = ${workspaceId}
        and collected_at < ${collectedAt}::timestamptz order by collected_at desc limit 1)`),
  );
  const next = rowsOf<{ day: string }>(
    await db.execute(sql`select to_char(collected_at at time zone 'UTC', 'YYYY-MM-DD') as day from reports
      where workspace_id = ${workspaceId} and collected_at > ${collectedAt}::timestamptz
      order by collected_at asc limit 1`),
  );
  return { previous, nextDay: next[0]?.day ?? null };
}

/**
 * Stores every root of the report in the history and the daily roll-up and, when it is the workspace's
 * newest report, in the latest table: one statement, the roots parsed once by Postgres from JSON.
 */
export async function storeRoots(
  db: Db,
  r: Report,
  day: string,
  isNewest: boolean,
): Promise<void> {
  const ws = r.workspace.id;
  const latest = isNewest
    ? sql`insert into root_latest (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
          apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest)
        select report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes, apparent_bytes, files, dirs,
          oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest from rows
        on conflict (workspace_id, root_key) do update set report_id = excluded.report_id,
          collected_at = excluded.collected_at, kind = excluded.kind, agent = excluded.agent, path = excluded.path,
          bytes = excluded.bytes, apparent_bytes = excluded.apparent_bytes, files = excluded.files,
          dirs = excluded.dirs, oldest_mtime = excluded.oldest_mtime, newest_mtime = excluded.newest_mtime,
          orphaned = excluded.orphaned, unreadable = excluded.unreadable, categories = excluded.categories,
          ages = excluded.ages, largest = excluded.largest`
    : sql`select 1`;
  await db.execute(sql`with rows as (
      select ${r.id}::uuid as report_id, ${r.collectedAt}::timestamptz as collected_at, ${ws}::text as workspace_id,
        x.key as root_key, x.kind, x.agent, x.path, x.bytes, x."apparentBytes" as apparent_bytes, x.files, x.dirs,
        x."oldestMtime" as oldest_mtime, x."newestMtime" as newest_mtime, coalesce(x.orphaned, false) as orphaned,
        coalesce(x.unreadable, 0) as unreadable, coalesce(x.categories, '{}'::jsonb) as categories,
        coalesce(x.ages, '{}'::jsonb) as ages, coalesce(x.largest, '[]'::jsonb) as largest
      from jsonb_to_recordset(${JSON.stringify(r.roots)}::jsonb) as x(key text, kind text, agent text, path text,
        bytes bigint, "apparentBytes" bigint, files bigint, dirs bigint, "oldestMtime" timestamptz,
        "newestMtime" timestamptz, orphaned boolean, unreadable integer, categories jsonb, ages jsonb, largest jsonb)
    ), history as (
      insert into root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
        apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest)
      select * from rows returning 1
    ), daily as (
      insert into root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
      select workspace_id, root_key, ${day}::date, agent, kind, bytes, apparent_bytes, files, collected_at from rows
      on conflict (workspace_id, root_key, day) do update set agent = excluded.agent, kind = excluded.kind,
        bytes = excluded.bytes, apparent_bytes = excluded.apparent_bytes, files = excluded.files,
        collected_at = excluded.collected_at
      where root_daily.collected_at <= excluded.collected_at
      returning 1
    )
    ${latest}`);
}

/** Roots that the report no longer has: gone from the latest table (when newest) and zero for the day. */
export async function removeRoots(
  db: Db,
  workspaceId: string,
  removed: RootLevel[],
  day: string,
  collectedAt: string,
  isNewest: boolean,
): Promise<void> {
  if (removed.length === 0) return;
  const keys = removed.map((x) => x.key);
  if (isNewest) {
    await db.execute(sql`delete from root_latest where workspace_id = ${workspaceId}
      and root_key = any(${sql.param(keys)}::text[])`);
  }
  await db.execute(sql`insert into root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
    select ${workspaceId}, k, ${day}::date, a, kd, 0, 0, 0, ${collectedAt}::timestamptz
    from unnest(${sql.param(keys)}::text[], ${sql.param(removed.map((x) => x.agent))}::text[],
      ${sql.param(removed.map((x) => x.kind))}::text[]) as u(k, a, kd)
    on conflict (workspace_id, root_key, day) do update set bytes = 0, apparent_bytes = 0, files = 0,
      collected_at = excluded.collected_at
    where root_daily.collected_at <= excluded.collected_at`);
}

/** Adds level changes to the fleet roll-up, in a fixed order so concurrent ingests never deadlock. */
export async function addFleetDeltas(db: Db, deltas: FleetDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const sorted = [...deltas].sort(
    (a, b) => a.day.localeCompare(b.day) || a.agent.localeCompare(b.agent) || a.kind.localeCompare(b.kind),
  );
  await db.execute(sql`insert into fleet_delta (day, agent, kind, shard, bytes, roots)
    select d::date, a, k, s, b, n from unnest(${sql.param(sorted.map((d) => d.day))}::text[],
      ${sql.param(sorted.map((d) => d.agent))}::text[], ${sql.param(sorted.map((d) => d.kind))}::text[],
      ${sql.param(sorted.map((d) => d.shard))}::int[], ${sql.param(sorted.map((d) => d.bytes))}::bigint[],
      ${sql.param(sorted.map((d) => d.roots))}::int[]) as u(d, a, k, s, b, n)
    on conflict (day, agent, kind, shard) do update set bytes = fleet_delta.bytes + excluded.bytes,
      roots = fleet_delta.roots + excluded.roots`);
}

export async function upsertWorkspaceDay(
  db: Db,
  r: Report,
  day: string,
  totalBytes: number,
): Promise<void> {
  await db.execute(sql`insert into workspace_daily (workspace_id, day, bytes, volume_total_bytes, volume_free_bytes, collected_at)
    values (${r.workspace.id}, ${day}::date, ${totalBytes}, ${r.volume?.totalBytes ?? null}, ${r.volume?.freeBytes ?? null},
      ${r.collectedAt}::timestamptz)
    on conflict (workspace_id, day) do update set bytes = excluded.bytes,
      volume_total_bytes = excluded.volume_total_bytes, volume_free_bytes = excluded.volume_free_bytes,
      collected_at = excluded.collected_at
    where workspace_daily.collected_at <= excluded.collected_at`);
}

/** Used bytes of the volume at the end of each of the last `days` days. */
export async function recentVolumeUse(
  db: Db,
  workspaceId: string,
  days: number,
): Promise<{ t: number; v: number }[]> {
  const rows = rowsOf<{ t: number; used: number }>(
    await db.execute(sql`select extract(epoch from collected_at) * 1000 as t,
        (volume_total_bytes - volume_free_bytes)::float8 as used
      from workspace_daily where workspace_id = ${workspaceId} and volume_total_bytes is not null
      order by day desc limit ${days}`),
  );
  return rows.map((x) => ({ t: Number(x.t), v: Number(x.used) })).reverse();
}

export type WorkspaceSummary = {
  name: string;
  owner: string;
  template: string | null;
  agentName: string | null;
  reportId: string;
  collectedAt: Date;
  volumeTotalBytes: number | null;
  volumeFreeBytes: number | null;
  totalBytes: number;
  rootCount: number;
  largestAgent: string | null;
  largestAgentBytes: number | null;
  growthBytesPerDay: number | null;
  forecastFullAt: Date | null;
};

export async function updateWorkspaceSummary(db: Db, id: string, s: WorkspaceSummary, seenAt: Date) {
  await db
    .update(workspaces)
    .set({
      name: s.name,
      owner: s.owner,
      template: s.template,
      agentName: s.agentName,
      lastSeenAt: seenAt,
      lastReportId: s.reportId,
      lastCollectedAt: s.collectedAt,
      volumeTotalBytes: s.volumeTotalBytes,
      volumeFreeBytes: s.volumeFreeBytes,
      totalBytes: s.totalBytes,
      rootCount: s.rootCount,
      largestAgent: s.largestAgent,
      largestAgentBytes: s.largestAgentBytes,
      growthBytesPerDay: s.growthBytesPerDay,
      forecastFullAt: s.forecastFullAt,
    })
    .where(eq(workspaces.id, id));
}

export async function touchWorkspace(db: Db, id: string, seenAt: Date) {
  await db.update(workspaces).set({ lastSeenAt: seenAt }).where(eq(workspaces.id, id));
}
