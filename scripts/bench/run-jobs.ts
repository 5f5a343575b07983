// A run's jobs as the run page lists them (lib/db/queries/cleanup-run-jobs.ts), on real Postgres: the first
// and a later page of each order, all jobs and one state, for a run of 10 jobs and one of 10,000 in the same
// database. A page read by an index in the page's order costs the same at both sizes; one that sorts every job
// of the run costs with the run. Prints the median of 7 reads and EXPLAIN of the large run's first pages.
//   node --conditions=react-server --import tsx scripts/bench/run-jobs.ts
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { listRunJobs } from "@/lib/db/queries/cleanup-run-jobs";
import { CONNECTION_OPTIONS, openPostgres } from "@/lib/db/open";
import * as schema from "@/lib/db/schema";
import { createScratchPostgres } from "@/tests/support/db";
import { rowsOf, type Db } from "@/lib/db/types";
import { RUN_JOB_SORTS, type RunJobSort } from "@/lib/validations/cleanup";
import type { ShownJobState } from "@/lib/cleanup/job-states";

const SIZES = [10, 10_000];

async function load(db: Db) {
  await db.execute(sql`insert into workspaces (id, name, owner, template, total_bytes, root_count, last_collected_at)
    select 'ws-' || lpad(i::text, 6, '0'), 'workspace-' || i, 'owner-' || (i % 97), 'template', 0, 1, now()
    from generate_series(1, ${Math.max(...SIZES)}::int) i`);
  const runs: Record<number, string> = {};
  for (const n of SIZES) {
    const [run] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into cleanup_runs (kind, scope, action, trash_days, min_age_hours, expires_days,
          created_by_type, created_by_label)
        values ('cleanup', '{"all":true}', 'trash', 7, 24, 3, 'system', 'bench') returning id`),
    );
    runs[n] = run.id;
    // Mostly finished (done with bytes freed, a few failed), the rest waiting or running.
    await db.execute(sql`insert into cleanup_jobs (run_id, workspace_id, kind, state, preview_bytes, preview_units,
        expires_at, finished_at, bytes_acted, units_acted)
      select ${run.id}, 'ws-' || lpad(i::text, 6, '0'), 'cleanup',
        case when i % 10 = 0 then 'queued' when i % 10 = 1 then 'running' when i % 50 = 2 then 'failed' else 'done' end,
        (i::bigint * 7919) % 100000000, i % 100, now() + interval '3 days',
        case when i % 10 > 1 then now() - make_interval(secs => i) end,
        case when i % 10 > 1 then (i::bigint * 104729) % 100000000 end,
        case when i % 10 > 1 then i % 100 end
      from generate_series(1, ${n}::int) i`);
  }
  await db.execute(sql`analyze`);
  return runs;
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[3];
}

const scratch = await createScratchPostgres({ migrated: true });
const database = await openPostgres(scratch.url, 2);
try {
  const db = database.db;
  const runs = await load(db);
  const now = new Date();
  console.log(
    `order\tstate\t${SIZES.map((n) => `first page at ${n} jobs (ms)`).join("\t")}\tlater page at 10,000\tratio`,
  );
  const views: { sort: RunJobSort; state?: ShownJobState }[] = RUN_JOB_SORTS.flatMap((sort) => [
    { sort },
    { sort, state: "failed" as const },
  ]);
  for (const view of views) {
    const page = (runId: string, cursor?: string) => listRunJobs(db, runId, { ...view, limit: 50, cursor }, now);
    const firsts = [];
    for (const n of SIZES) firsts.push(await median(() => page(runs[n])));
    const big = runs[SIZES.at(-1)!];
    const cursor = (await page(big)).nextCursor ?? undefined;
    const later = cursor ? await median(() => page(big, cursor)) : NaN;
    console.log(
      `${view.sort}\t${view.state ?? "all"}\t${firsts.map((t) => t.toFixed(1)).join("\t")}\t${later.toFixed(1)}\t` +
        `${(firsts[1] / firsts[0]).toFixed(2)}`,
    );
  }
  // The plans of the large run's first pages: the queries recorded by a logging client, then explained.
  const pool = new Pool({ connectionString: scratch.url, max: 1, options: CONNECTION_OPTIONS });
  const seen: { text: string; params: unknown[] }[] = [];
  const logged = drizzle({ client: pool, schema, logger: { logQuery: (text, params) => seen.push({ text, params }) } });
  try {
    for (const view of views) {
      seen.length = 0;
      await listRunJobs(logged as unknown as Db, runs[SIZES.at(-1)!], { ...view, limit: 50 }, now);
      const plan = await pool.query(`explain (analyze, costs off) ${seen[0].text}`, seen[0].params);
      console.log(`\nEXPLAIN first page by ${view.sort}, ${view.state ?? "all"}:`);
      for (const r of plan.rows) console.log(`  ${r["QUERY PLAN"]}`);
    }
  } finally {
    await pool.end();
  }
} finally {
  await database.close();
  await scratch.drop();
}
