import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { addDaysTo, eachDay, fillCarryForward, utcDayOf, type Day } from "@/lib/series";
import { workspaceListQuery, type WorkspaceListQuery, type WorkspaceSortColumn } from "@/lib/validations/workspaces";
import { notDeleted, workspacesAsW } from "../deleted";
import { inScope, type WorkspaceScope } from "../scope";
import { rowsOf, type Db } from "../types";
import { getRules } from "./findings";
import { teamLabels } from "./teams";
import { keysetOrder } from "../keyset";
import { change7dColumn, change7dJoin, change7dSince } from "./change-7d";
import { workspaceSortKeys } from "./workspace-sort";
import { workspaceSetGrowth, type WorkspaceSetGrowth } from "./workspace-set-growth";
import { numOrNull, rowColumns, toRow, type RawRow, type WorkspaceRow } from "./workspace-row";

export const SPARKLINE_DAYS = 30;

/** `coderUrl`: Coder's access URL for the rows' links into Coder (the caller's configuration); none without it. */
export type WorkspaceListParams = WorkspaceListQuery & { now?: Date; coderUrl?: string | null };

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
  /** The filtered set's growth over 30 days, when the list is filtered by owner or template. */
  growth: WorkspaceSetGrowth | null;
  /** The names of the organization and group filtered by (the URL holds their ids); null when not filtered, or unknown. */
  teamFilters: { organization: string | null; group: string | null };
};

/** Daily totals of `ids` over `days`, carried forward from the last total before the first day. */
async function dailyTotals(db: Db, ids: string[], days: Day[]): Promise<Map<string, (number | null)[]>> {
  const out = new Map<string, (number | null)[]>();
  if (ids.length === 0) return out;
  const from = days[0];
  const to = days[days.length - 1];
  // unnest is a set-returning function (one start value per workspace): SQL through db.execute.
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
  for (const [id, e] of byWs)
    out.set(
      id,
      fillCarryForward(days, e.values, e.start).map((p) => p.value),
    );
  return out;
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The list's filters (alias `w`) within the caller's scope, as conditions to join with "and". */
export function workspaceFilters(
  p: Pick<
    WorkspaceListQuery,
    "q" | "owner" | "template" | "organization" | "group" | "agent" | "status" | "dormant" | "reporting"
  >,
  scope: WorkspaceScope,
): SQL[] {
  const where: SQL[] = [inScope(scope, sql`w.owner`)];
  // Workspaces deleted in Coder are listed only when asked for by that status.
  if (p.status === "deleted") where.push(sql`w.deleted_at is not null`);
  else {
    where.push(notDeleted);
    if (p.status) where.push(sql`w.coder_status = ${p.status}`);
  }
  if (p.dormant === "true") where.push(sql`w.coder_dormant_at is not null`);
  if (p.dormant === "false") where.push(sql`w.coder_dormant_at is null`);
  // Coverage: Coder's workspaces (seen by a sync) that never reported, or did.
  if (p.reporting === "no") where.push(sql`w.coder_synced_at is not null and w.last_collected_at is null`);
  if (p.reporting === "yes") where.push(sql`w.last_collected_at is not null`);
  if (p.q) {
    const pat = likePattern(p.q);
    where.push(sql`(w.name ilike ${pat} or w.owner ilike ${pat} or w.template ilike ${pat} or w.id ilike ${pat})`);
  }
  if (p.owner) where.push(sql`w.owner = ${p.owner}`);
  if (p.template) where.push(sql`w.template = ${p.template}`);
  if (p.organization) where.push(sql`w.organization_id = ${p.organization}`);
  // A team's workspaces are its members', as the usage by group counts them (usernames kept lower-cased).
  if (p.group) {
    where.push(sql`lower(w.owner) in (select tm.username from team_members tm where tm.group_id = ${p.group})`);
  }
  if (p.agent) where.push(sql`w.id in (select workspace_id from root_latest where agent = ${p.agent})`);
  return where;
}

/**
 * One page of the workspaces table: filters, sort and paging in SQL over the workspaces table (denormalised
 * totals), then the page's sparklines in one query on workspace_daily.
 */
export async function listWorkspaces(
  db: Db,
  scope: WorkspaceScope,
  params: WorkspaceListParams = {},
): Promise<WorkspaceList> {
  const p = workspaceListQuery.parse(params);
  const now = params.now ?? new Date();
  const today = utcDayOf(now);
  const since = change7dSince(now);
  const sparklineDays = eachDay(addDaysTo(today, -(SPARKLINE_DAYS - 1)), today);

  const where = workspaceFilters(p, scope);
  const ctx = { now, rules: await getRules(db), coderUrl: params.coderUrl ?? null };
  const order = sql`order by ${keysetOrder(workspaceSortKeys(p.sort, p.dir, ctx.rules))}`;
  const filtered = sql`where ${sql.join(where, sql` and `)} ${order} limit ${p.pageSize} offset ${(p.page - 1) * p.pageSize}`;
  const page = (change: SQL) => sql`select ${rowColumns(ctx)}${change}
    from workspaces w ${p.sort === "change7d" ? change7dJoin(since) : sql``} ${filtered}`;
  // The 7-day change needs a lookup per workspace: read for every workspace only when the table is sorted by
  // it, else for the page's rows once they are chosen. The count is a statement of its own: as a window over the
  // page's query it made the page read every workspace in the sort's order, at 100,000 workspaces 20 times the
  // time of a count and a page read apart.
  // The page is SQL composed from the row columns, filters and sort keys the export shares: db.execute.
  const [rawRows, count] = await Promise.all([
    db.execute(
      p.sort === "change7d"
        ? page(sql`, ${change7dColumn}`)
        : sql`select w.*, ${change7dColumn} from (${page(sql``)}) w ${change7dJoin(since)} ${order}`,
    ),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(workspacesAsW)
      .where(sql.join(where, sql` and `)),
  ]);
  const rows = rowsOf<RawRow>(rawRows);
  const total = Number(count[0].n);
  const spark = await dailyTotals(
    db,
    rows.map((r) => r.id),
    sparklineDays,
  );
  return {
    rows: rows.map((r) => {
      return { ...toRow(r, ctx), sparkline: spark.get(r.id) ?? sparklineDays.map(() => null) };
    }),
    total,
    page: p.page,
    pageSize: p.pageSize,
    sort: p.sort,
    dir: p.dir,
    sparklineDays,
    growth: p.owner || p.template ? await workspaceSetGrowth(db, where, now) : null,
    teamFilters: {
      organization: p.organization
        ? ((await teamLabels(db, "organization", [p.organization])).get(p.organization) ?? null)
        : null,
      group: p.group ? ((await teamLabels(db, "group", [p.group])).get(p.group) ?? null) : null,
    },
  };
}
