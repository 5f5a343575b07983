import "server-only";
import { and, isNotNull, isNull, sql } from "drizzle-orm";
import { KEY_BLOCKERS, type BlockerReason } from "@/lib/report-format/blockers";
import { isoOrNull } from "@/lib/series";
import { workspaces } from "../schema";
import { rowsOf, type Db } from "../types";

/**
 * How many of Coder's workspaces report: "4,812 of 5,000 Coder workspaces report; 188 don't". Coder's workspaces
 * are those a sync saw and not deleted; one reports once it sent a report. The ones that don't are the workspaces
 * table under `reporting=no` (and its CSV export).
 */
export type Coverage = { coder: number; reporting: number; notReporting: number };

/** Null until a sync has seen a workspace in Coder. */
export async function getCoverage(db: Db): Promise<Coverage | null> {
  const [r] = await db
    .select({
      coder: sql<number>`count(*)::int`,
      reporting: sql<number>`count(${workspaces.lastCollectedAt})::int`,
    })
    .from(workspaces)
    .where(and(isNotNull(workspaces.coderSyncedAt), isNull(workspaces.deletedAt)));
  const coder = Number(r.coder);
  if (coder === 0) return null;
  const reporting = Number(r.reporting);
  return { coder, reporting, notReporting: coder - reporting };
}

/**
 * A workspace that does not report, and why where its module's script said so (a report after the reason clears
 * it). Coder's workspaces that never reported are listed while a sync is on, with a reason or without one.
 */
export type NotReportingWorkspace = {
  id: string;
  name: string;
  owner: string;
  template: string | null;
  reason: BlockerReason | null;
  detail: string | null;
  /** When the module's script gave the reason. */
  reportedAt: string | null;
  /** The newest report, when the workspace reported before the reason (it stopped reporting). */
  lastCollectedAt: string | null;
};

/** The workspaces that do not report, the ones with a reason first (newest first), then by owner and name. */
export async function notReportingWorkspaces(
  db: Db,
  limit: number,
): Promise<{ total: number; workspaces: NotReportingWorkspace[] }> {
  // A union of two sets counted by a window function, which the query builder has no form for: SQL it stays.
  const rows = rowsOf<{
    id: string;
    name: string;
    owner: string;
    template: string | null;
    reason: string | null;
    detail: string | null;
    reported_at: Date | string | null;
    last_collected_at: Date | string | null;
    total: number;
  }>(
    await db.execute(sql`with missing as (
        select b.workspace_id as id, coalesce(w.name, b.name) as name, coalesce(w.owner, b.owner) as owner,
          coalesce(w.template, b.template) as template, b.reason, b.detail, b.reported_at, w.last_collected_at
        from report_blockers b left join workspaces w on w.id = b.workspace_id
        where w.deleted_at is null and (w.last_collected_at is null or w.last_collected_at < b.reported_at)
          and (not b.by_key or b.reported_at >= now() - make_interval(days => ${KEY_BLOCKERS.days}))
        union all
        select w.id, w.name, w.owner, w.template, null, null, null, null
        from workspaces w
        where w.coder_synced_at is not null and w.deleted_at is null and w.last_collected_at is null
          and not exists (select 1 from report_blockers b where b.workspace_id = w.id)
      )
      select *, count(*) over ()::int as total from missing
      order by reported_at desc nulls last, owner, name, id
      limit ${limit}`),
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    workspaces: rows.map((r) => ({
      id: r.id,
      name: r.name,
      owner: r.owner,
      template: r.template,
      reason: r.reason as BlockerReason | null,
      detail: r.detail,
      reportedAt: isoOrNull(r.reported_at),
      lastCollectedAt: isoOrNull(r.last_collected_at),
    })),
  };
}
