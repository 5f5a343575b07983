import "server-only";
import { addDays, parseISO } from "date-fns";
import { sql, type SQL } from "drizzle-orm";
import type { Day } from "@/lib/series";
import {
  copyPool,
  openCopyCsv,
  selectValues,
  type CopyCsvOptions,
  type CopySource,
  type SqlColumn,
  type WorkspaceRange,
} from "../copy-csv";
import { inScope, type WorkspaceScope } from "../scope";
import { keysetRows, type KeyPart, type PageOptions, type PageParts } from "../keyset";
import { workspaces } from "../schema";
import type { Db } from "../types";

export type UsageFilters = {
  /** Whose workspaces: a member's export holds only their own. */
  scope: WorkspaceScope;
  from: Day;
  to: Day;
  workspaces?: string[];
  owner?: string;
  template?: string;
  agent?: string;
  roots?: string[];
};

/** One root of one workspace at one time. Sizes are int8 read as text: exact at any size. */
export type UsageRow = {
  /** ISO 8601 in UTC, to the millisecond. */
  time: string;
  /** The UTC day (daily rows). */
  day?: Day;
  /** The report (report rows). */
  report_id?: string;
  workspace_id: string;
  workspace: string;
  owner: string;
  template: string | null;
  organization: string | null;
  /** The owner's teams, ";" between. */
  groups: string | null;
  agent: string;
  kind: string;
  root: string;
  path: string | null;
  bytes: string;
  apparent_bytes: string;
  files: string;
};

/** Conditions shared by both granularities; `t` is the alias of the table holding workspace_id, agent, root_key. */
function filters(f: UsageFilters, t: string): SQL[] {
  const c = (col: string) => sql.raw(`${t}.${col}`);
  const where: SQL[] = [inScope(f.scope, sql`w.owner`)];
  // One workspace at a time (see eachWorkspace): an equality keeps the index's order.
  if (f.workspaces?.length) where.push(sql`${c("workspace_id")} = ${f.workspaces[0]}`);
  if (f.roots?.length) where.push(sql`${c("root_key")} = any(${sql.param(f.roots)}::text[])`);
  if (f.agent) where.push(sql`${c("agent")} = ${f.agent}`);
  if (f.owner) where.push(sql`w.owner = ${f.owner}`);
  if (f.template) where.push(sql`w.template = ${f.template}`);
  return where;
}

const and = (parts: SQL[]) => sql.join(parts, sql` and `);

/**
 * A list of workspaces is read one workspace after the other, in the database's order of ids: with
 * "workspace_id = any(list)" Postgres before 17 no longer trusts the index's order and sorts every remaining
 * row of the list on each page; with one id per read each page is a plain index range again.
 */
async function* eachWorkspace<T>(db: Db, f: UsageFilters, read: (f: UsageFilters) => T): AsyncGenerator<T> {
  if (!f.workspaces || f.workspaces.length <= 1) {
    yield read(f);
    return;
  }
  const ids = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(sql`${workspaces.id} = any(${sql.param(f.workspaces)}::text[])`)
    .orderBy(workspaces.id);
  for (const { id } of ids) yield read({ ...f, workspaces: [id] });
}

function byWorkspace(
  db: Db,
  f: UsageFilters,
  read: (f: UsageFilters) => AsyncGenerator<UsageRow>,
): AsyncGenerator<UsageRow> {
  if (!f.workspaces || f.workspaces.length <= 1) return read(f);
  return (async function* () {
    for await (const rows of eachWorkspace(db, f, read)) yield* rows;
  })();
}

/** The workspace's Coder organization by name (its id where the sync has not read the organizations). */
const ORGANIZATION = sql`coalesce((select o.name from team_organizations o where o.id = w.organization_id), w.organization_id)`;
/** Every team of the workspace's owner (Coder's groups, or an uploaded mapping's), by name, ";" between. */
const GROUPS = sql`(select string_agg(g.name, ';' order by g.name) from team_members tm
  join team_groups g on g.id = tm.group_id where tm.username = lower(w.owner))`;

/** The columns every row has after its time and day (or report), read from the root's table `t`. */
const rootColumns = (t: string): SqlColumn[] => {
  const c = (col: string) => sql.raw(`${t}.${col}`);
  return [
    { header: "workspace_id", type: "text", expr: c("workspace_id") },
    { header: "workspace", type: "text", expr: sql`w.name` },
    { header: "owner", type: "text", expr: sql`w.owner` },
    { header: "template", type: "text", expr: sql`w.template` },
    { header: "organization", type: "text", expr: ORGANIZATION },
    { header: "groups", type: "text", expr: GROUPS },
    { header: "agent", type: "text", expr: c("agent") },
    { header: "kind", type: "text", expr: c("kind") },
    { header: "root", type: "text", expr: c("root_key") },
    { header: "path", type: "text", expr: c("path") },
    { header: "bytes", type: "integer", expr: c("bytes") },
    { header: "apparent_bytes", type: "integer", expr: c("apparent_bytes") },
    { header: "files", type: "integer", expr: c("files") },
  ];
};

// The path is the root's current one (root_daily keeps none): root_latest's, aliased l.
export const DAILY_COLUMNS: SqlColumn[] = [
  { header: "time", type: "time", expr: sql`d.collected_at` },
  { header: "day", type: "day", expr: sql`d.day` },
  ...rootColumns("d").map((c) => (c.header === "path" ? { ...c, expr: sql`l.path` } : c)),
];

export const REPORT_COLUMNS: SqlColumn[] = [
  { header: "time", type: "time", expr: sql`r.collected_at` },
  { header: "report_id", type: "text", expr: sql`r.id` },
  ...rootColumns("u"),
];

// The key order is that of root_daily_workspace_root_day_idx (workspace_id, root_key, day; the primary key is
// day first since 0016): each page is one index range scan. The row's own columns hold the keys (as text), so a
// page selects no copy of them.
const DAILY_KEYS: KeyPart[] = [
  { expr: sql`d.workspace_id`, type: "text", column: "workspace_id" },
  { expr: sql`d.root_key`, type: "text", column: "root" },
  { expr: sql`d.day`, type: "date", column: "day" },
];

/**
 * One row per workspace, root and UTC day of the range that had a report (root_daily: the day's last value);
 * `time` is that last report's time.
 */
export function dailyUsageRows(db: Db, filters: UsageFilters, opts?: PageOptions): AsyncGenerator<UsageRow> {
  const select = selectValues(DAILY_COLUMNS);
  return byWorkspace(db, filters, (f) => keysetRows<UsageRow>(db, DAILY_KEYS, (p) => dailyPage(f, select, p), opts));
}

/** No range: every workspace the filters let through. */
const ANY_WORKSPACE: WorkspaceRange = () => sql`true`;

function dailyPage(f: UsageFilters, select: SQL, p: PageParts, range = ANY_WORKSPACE): SQL {
  const where = [sql`d.day between ${f.from}::date and ${f.to}::date`, ...filters(f, "d")];
  return sql`select ${select}${p.keyColumns}
    from root_daily d
    join workspaces w on w.id = d.workspace_id and ${range(sql`w.id`)}
    left join root_latest l on l.workspace_id = d.workspace_id and l.root_key = d.root_key and ${range(sql`l.workspace_id`)}
    where ${and(where)} and ${range(sql`d.workspace_id`)} and ${p.after}
    order by ${p.order} limit ${p.limit}`;
}

// Reports in (workspace, time, id) order through reports' primary key (workspace_id, collected_at, id), each
// report's roots through root_usage's primary key (collected_at, workspace_id, report_id, root_key), given in
// full, and with it the one day partition to read. A lateral subquery (kept whole by its ORDER BY) so that it
// is a lookup per report: as a plain join, the planner, which prices a lookup into the partitioned table as
// one into every partition, hashed all of root_usage for each page or COPY batch (0.6 s a batch of 50,000
// rows at 1.1M rows of raw history, growing with it).
const REPORT_KEYS: KeyPart[] = [
  { expr: sql`r.workspace_id`, type: "text", column: "workspace_id" },
  { expr: sql`r.collected_at`, type: "timestamptz" },
  { expr: sql`r.id`, type: "uuid", column: "report_id" },
  { expr: sql`u.root_key`, type: "text", column: "root" },
];

/** Every root of every report collected in the range (UTC days, both included): the raw history. */
export function reportUsageRows(db: Db, filters: UsageFilters, opts?: PageOptions): AsyncGenerator<UsageRow> {
  const select = selectValues(REPORT_COLUMNS);
  return byWorkspace(db, filters, (f) => keysetRows<UsageRow>(db, REPORT_KEYS, (p) => reportPage(f, select, p), opts));
}

function reportPage(f: UsageFilters, select: SQL, p: PageParts, range = ANY_WORKSPACE): SQL {
  const start = parseISO(`${f.from}T00:00:00Z`).toISOString();
  const end = addDays(parseISO(`${f.to}T00:00:00Z`), 1).toISOString();
  const where = [
    sql`r.collected_at >= ${start}::timestamptz and r.collected_at < ${end}::timestamptz`,
    ...filters(f, "u"),
  ];
  // The workspace filter on reports too, so the index range starts at the first chosen workspace.
  if (f.workspaces?.length) where.push(sql`r.workspace_id = ${f.workspaces[0]}`);
  return sql`select ${select}${p.keyColumns}
    from reports r
    cross join lateral (select * from root_usage u
      where u.collected_at = r.collected_at and u.workspace_id = r.workspace_id and u.report_id = r.id
      order by u.root_key) u
    join workspaces w on w.id = r.workspace_id and ${range(sql`w.id`)}
    where ${and(where)} and ${range(sql`r.workspace_id`)} and ${p.after}
    order by ${p.order} limit ${p.limit}`;
}

/**
 * The same file written by PostgreSQL's COPY, or null on the embedded database (which has no COPY to a
 * client stream): the same pages' queries, keys and order, with the cells formatted in SQL.
 */
export function usageCopy(
  db: Db,
  granularity: "daily" | "report",
  filters: UsageFilters,
  opts?: CopyCsvOptions,
): ((onError: (err: unknown) => void) => Promise<ReadableStream<Uint8Array>>) | null {
  const pool = copyPool(db);
  if (!pool) return null;
  const daily = granularity === "daily";
  // Cut into batches by workspace, unless it is one workspace's rows (a list is read one workspace at a time).
  const source = (f: UsageFilters): CopySource => ({
    keys: daily ? DAILY_KEYS : REPORT_KEYS,
    page: (select, p, range) => (daily ? dailyPage(f, select, p, range) : reportPage(f, select, p, range)),
    batched: !f.workspaces?.length,
  });
  return (onError) =>
    openCopyCsv(pool, daily ? DAILY_COLUMNS : REPORT_COLUMNS, () => eachWorkspace(db, filters, source), {
      onError,
      ...opts,
    });
}
