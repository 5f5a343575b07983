import "server-only";
import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { KEPT_AGGREGATES_LOCK } from "../advisory-locks";
import { ofLiveWorkspace } from "../deleted";
import { rowsOf, type Db } from "../types";
import { workspaceFilter } from "./rule-rows";
import { workspaceRanges, type WorkspaceRange } from "./workspace-batches";

// Each workspace's bytes and roots per series of the fleet chart, kept (lib/db/schema/reports.ts
// workspace_series): the overview's levels now and its top agents read ~7 rows a workspace instead of every
// root. The rows are trusted only when the settings row SIGNATURE_KEY holds the signature of the SQL that wrote
// them (none before the first rewrite of the whole fleet, another after an upgrade that changed it): otherwise
// the pages sum root_latest, as before.

const SIGNATURE_KEY = "kept.workspace_series";

/** SQL for the series key of a fleet_delta / root_latest row (see FleetSeriesKey in fleet-series.ts). */
export const seriesKeySql = sql.raw(
  `case when kind = 'script-data' then 'script-data' when kind = 'module' and agent = 'other' then 'modules' else agent end`,
);

/** The rows of `workspace_series` computed from root_latest, of `workspaces` or the whole fleet. */
const computed = (workspaces?: readonly string[] | WorkspaceRange): SQL =>
  sql`select workspace_id, ${seriesKeySql} as key, sum(bytes)::bigint as bytes, count(*)::int as roots
    from root_latest where true ${workspaceFilter(sql`workspace_id`, workspaces)} group by 1, 2`;

const signature = createHash("sha256")
  .update(JSON.stringify(new PgDialect().sqlToQuery(computed()).sql))
  .digest("hex");

async function rewrite(tx: Db, workspaces: readonly string[] | WorkspaceRange): Promise<void> {
  await tx.execute(sql`delete from workspace_series where true ${workspaceFilter(sql`workspace_id`, workspaces)}`);
  await tx.execute(sql`insert into workspace_series (workspace_id, key, bytes, roots) ${computed(workspaces)}`);
}

/** Ingest's part, in the report's transaction (after lockKeptShared): the workspaces whose latest roots it replaced. */
export async function rewriteWorkspaceSeries(tx: Db, workspaces: readonly string[]): Promise<void> {
  if (workspaces.length > 0) await rewrite(tx, workspaces);
}

/**
 * The whole fleet's rows, and the signature that makes the pages read them, in the caller's transaction; a range of
 * workspaces at a time (workspace-batches.ts), each statement within the statement timeout.
 */
export async function rewriteFleetSeries(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${KEPT_AGGREGATES_LOCK})`);
  for (const range of await workspaceRanges(tx)) await rewrite(tx, range);
  await tx.execute(sql`insert into settings (key, value) values (${SIGNATURE_KEY}, ${signature})
    on conflict (key) do update set value = excluded.value, updated_at = now()`);
}

/** At start: rewrites the fleet's rows unless they were written by this code. */
export async function rewriteStaleFleetSeries(db: Db): Promise<boolean> {
  if (await seriesKept(db)) return false;
  await db.transaction((tx) => rewriteFleetSeries(tx));
  return true;
}

async function seriesKept(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ value: string }>(
    await db.execute(sql`select value from settings where key = ${SIGNATURE_KEY}`),
  );
  return row?.value === signature;
}

/**
 * Each series' bytes, roots and workspaces now, over live workspaces (alias-free columns key, bytes, roots,
 * workspaces): from the kept rows when this code wrote them, else summed from root_latest.
 */
export async function seriesNow(db: Db): Promise<SQL> {
  const rows = (await seriesKept(db)) ? sql`select * from workspace_series` : computed();
  return sql`select key, sum(bytes)::float8 as bytes, sum(roots)::int as roots, count(*)::int as workspaces
    from (${rows}) s where ${ofLiveWorkspace(sql`s.workspace_id`)} group by key`;
}
