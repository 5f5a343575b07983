import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "./types";
import { describeEachDatabase } from "@/tests/support/db";

// docs/citus.md: how the schema maps onto Citus (distributed PostgreSQL), sharded by workspace. Citus cannot
// run here, so this reads the migrated schema from the catalog and checks what distribution would require:
// every primary key and unique index of a distributed table includes its distribution column (and, for a
// partitioned table, the partition key, as PostgreSQL itself requires).

/** Tables distributed by workspace, with their distribution column (colocated with `workspaces`). */
const DISTRIBUTED: Record<string, string> = {
  workspaces: "id",
  reports: "workspace_id",
  root_usage: "workspace_id",
  root_latest: "workspace_id",
  root_daily: "workspace_id",
  workspace_daily: "workspace_id",
  kept_findings: "workspace_id",
  root_growth_days: "workspace_id",
  workspace_agents: "workspace_id",
  workspace_series: "workspace_id",
  report_blockers: "workspace_id",
  kept_pending: "workspace_id",
  notice_states: "workspace_id",
};
/**
 * Small tables copied to every node (reference tables), fleet_delta, and the dashboard's own state: sign-in,
 * audit, cleanup and the notices' outbox (see docs/citus.md).
 */
const NOT_BY_WORKSPACE = [
  "settings",
  "reporter_releases",
  "finding_rules",
  "kept_finding_rules",
  "workspace_tokens",
  "fleet_delta",
  "users",
  "sessions",
  "accounts",
  "verifications",
  "api_keys",
  "rate_limits",
  "sign_in_failures",
  "sign_in_places",
  "audit_log",
  "cleanup_runs",
  "cleanup_jobs",
  "cleanup_job_results",
  "cleanup_policies",
  "coder_sync_state",
  "notification_outbox",
  "owner_contacts",
  "team_organizations",
  "team_groups",
  "team_members",
  "owner_notice_preferences",
  "owner_recipes",
  "cleanup_keeps",
];

describeEachDatabase("schema is ready for distribution by workspace", (t) => {
  const query = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.current.db.execute(q));

  it("places every table: distributed by workspace or one of the listed others", async () => {
    const tables = await query<{ name: string }>(sql`select c.relname as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`);
    const unplaced = tables.map((r) => r.name).filter((n) => !(n in DISTRIBUTED) && !NOT_BY_WORKSPACE.includes(n));
    expect(unplaced, "a new table: add it to docs/citus.md and to this test's lists").toEqual([]);
  });

  it("includes the distribution column (and the partition key) in every primary key and unique index", async () => {
    const keys = await query<{ tbl: string; idx: string; cols: string[]; partkey: string[] | null }>(sql`
      select c.relname as tbl, i.relname as idx,
        array(select a.attname::text from unnest(x.indkey) k join pg_attribute a on a.attrelid = c.oid and a.attnum = k) as cols,
        (select array(select a.attname::text from unnest(p.partattrs) k join pg_attribute a on a.attrelid = c.oid and a.attnum = k)
          from pg_partitioned_table p where p.partrelid = c.oid) as partkey
      from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and x.indisunique and not c.relispartition and c.relname = any(${sql.param(Object.keys(DISTRIBUTED))}::text[])`);
    const tablesWithKeys = new Set(keys.map((k) => k.tbl));
    expect([...tablesWithKeys].sort()).toEqual(Object.keys(DISTRIBUTED).sort());
    const wrong = keys.filter(
      (k) => !k.cols.includes(DISTRIBUTED[k.tbl]) || (k.partkey ?? []).some((c) => !k.cols.includes(c)),
    );
    expect(wrong, "unique keys that distribution by workspace (or partitioning) cannot enforce").toEqual([]);
    // The raw history is partitioned by collection time.
    expect(
      keys
        .filter((k) => k.partkey)
        .map((k) => [k.tbl, k.partkey])
        .sort(),
    ).toEqual([
      ["reports", ["collected_at"]],
      ["root_usage", ["collected_at"]],
    ]);
  });
});
