import { drizzle } from "drizzle-orm/node-postgres";
import type { Pool } from "pg";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { getRules, listFindings } from "@/lib/db/queries/findings";
import { getRestartRisk } from "@/lib/db/queries/restart-risk";
import { volumesAtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import type { Db } from "@/lib/db/types";
import { openCsvStream } from "@/lib/csv/stream";
import { usageExport } from "@/lib/export/usage";
import { workspacesExport } from "@/lib/export/lists";
import { to as copyTo } from "pg-copy-streams";
import { countLines } from "./export-probes";
import { WORKSPACE_SORT_COLUMNS } from "@/lib/validations/workspaces";
import { addDaysTo, utcDayOf } from "@/lib/series";
import { FLEET } from "@/lib/db/scope";
import { renderMetrics } from "@/lib/metrics/scrape";
import * as schema from "@/lib/db/schema";

// scale.ts's reads: the pages' queries, the floor they are set against, the CSV export and the plans.

export const EXPORT_DAYS = 7;
let capture: { text: string; params: unknown[] }[] | null = null;

/** A client on `pool` whose queries are recorded while explainPages runs them. */
export const recordingDb = (pool: Pool): Db =>
  drizzle({
    client: pool,
    schema,
    logger: { logQuery: (text, params) => capture?.push({ text, params }) },
  }) as unknown as Db;

export const now = new Date();
// The floors: for each page, the cheapest query that reads the same latest figures (what the page must at least
// read), timed in the same run. "sum by agent" is the one every page was set against before (the log's figures).
const FLOORS = {
  "floor: sum by agent": "select agent, sum(bytes) from root_latest group by agent",
  "floor: sum by workspace": "select workspace_id, sum(bytes) from root_latest group by workspace_id",
  "floor: workspaces, first 50 by size":
    "select id, total_bytes, count(*) over () from workspaces order by total_bytes desc limit 50",
  "floor: one owner's workspaces":
    "select id, total_bytes, count(*) over () from workspaces where owner = 'owner-42' order by total_bytes desc limit 50",
  "floor: workspaces named like":
    "select id, total_bytes, count(*) over () from workspaces where name ilike '%dev-4242%' order by total_bytes desc limit 50",
  "floor: workspaces with an agent": `select id, total_bytes, count(*) over () from workspaces w where exists
    (select 1 from root_latest r where r.workspace_id = w.id and r.agent = 'codex') order by total_bytes desc limit 50`,
  "floor: volumes filling": `select id, forecast_full_at, count(*) over () from workspaces
    where forecast_full_at < now() + interval '30 days' order by forecast_full_at limit 50`,
  "floor: one workspace's days": `select day, sum(bytes) from root_daily where workspace_id = 'ws-000420'
    and day > current_date - 90 group by day`,
  "floor: one agent's roots":
    "select workspace_id, sum(bytes) from root_latest where agent = 'claude-code' group by workspace_id",
  "floor: findings by rule": "select rule_id, count(*), sum(n) from kept_findings group by rule_id",
  "floor: a root of every workspace":
    "select count(*), sum(bytes) from root_latest where root_key = 'claude-code:data'",
  "floor: templates": "select template, count(*) from workspaces where persistence is not null group by template",
};
export const floors = (pool: Pool): Record<string, () => Promise<unknown>> =>
  Object.fromEntries(Object.entries(FLOORS).map(([name, q]) => [name, () => pool.query(q)]));

/** The floor a page is set against. */
export function floorOf(page: string): keyof typeof FLOORS {
  if (page.startsWith("workspaces page 1 by")) return "floor: workspaces, first 50 by size";
  const floor = (
    {
      "workspaces, one owner": "floor: one owner's workspaces",
      "workspaces, search": "floor: workspaces named like",
      "workspaces, with an agent": "floor: workspaces with an agent",
      "volumes at risk (first page)": "floor: volumes filling",
      "workspace detail 90d": "floor: one workspace's days",
      "agent claude-code (90d)": "floor: one agent's roots",
      "findings (first page)": "floor: findings by rule",
      "cleanup preview, whole fleet": "floor: a root of every workspace",
      "restart risk": "floor: templates",
    } as Record<string, keyof typeof FLOORS>
  )[page];
  return floor ?? "floor: sum by agent";
}

/** Pages timed to be seen, not held to the goal: an opt-in setting's cost. */
export const OPT_IN_PAGES = new Set(["/metrics scrape, every volume"]);

export const pages = (db: Db): Record<string, () => Promise<unknown>> => ({
  "fleet overview (90d)": () => getFleetOverview(db, { range: "90d", now }),
  ...Object.fromEntries(
    WORKSPACE_SORT_COLUMNS.map((sort) => [
      `workspaces page 1 by ${sort}`,
      () => listWorkspaces(db, FLEET, { now, sort }),
    ]),
  ),
  "workspaces, one owner": () => listWorkspaces(db, FLEET, { now, owner: "owner-42" }),
  "workspaces, search": () => listWorkspaces(db, FLEET, { now, q: "dev-4242" }),
  "workspaces, with an agent": () => listWorkspaces(db, FLEET, { now, agent: "codex" }),
  "volumes at risk (first page)": async () => {
    const rules = await getRules(db);
    return volumesAtRiskPage(db, { rules, now, days: rules["volume-filling"].params.days, limit: 50 });
  },
  "restart risk": () => getRestartRisk(db, FLEET),
  "workspace detail 90d": () => getWorkspaceDetail(db, FLEET, "ws-000420", { range: "90d", now }),
  "agent claude-code (90d)": () => getAgentDetail(db, "claude-code", { range: "90d", now }),
  "findings (first page)": () => listFindings(db, FLEET, { now }),
  // The whole exposition, text included, as GET /metrics writes it: by default (series for the volumes at risk),
  // and with STORAGE_METRICS_VOLUMES=all (series for every volume).
  "/metrics scrape": () => renderMetrics(db, { now, volumes: "at-risk" }),
  "/metrics scrape, every volume": () => renderMetrics(db, { now, volumes: "all" }),
  "cleanup preview, whole fleet": () =>
    previewRun(
      db,
      { recipe: "claude-code-sessions", params: { olderThanDays: 30 }, scope: { all: true }, minAgeHours: 24 },
      { now },
    ),
});

/** Lines of a CSV stream, the header left out, and rows/s since `t`. */
async function linesPerSecond(
  stream: ReadableStream<Uint8Array>,
  t: number,
): Promise<{ rows: number; perSec: number }> {
  const reader = stream.getReader();
  let lines = -1; // the header
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    lines += countLines(value);
  }
  return { rows: lines, perSec: lines / ((performance.now() - t) / 1000) };
}

/** The daily usage CSV of the whole fleet over the last EXPORT_DAYS days, written as the route writes it; rows/s. */
export async function exportRate(db: Db): Promise<{ rows: number; perSec: number }> {
  const t = performance.now();
  const exp = usageExport(
    db,
    FLEET,
    { range: "custom", from: addDaysTo(utcDayOf(now), 1 - EXPORT_DAYS), to: utcDayOf(now), granularity: "daily" },
    { now },
  );
  // PostgreSQL's COPY where the route uses it, as the route does.
  return linesPerSecond(exp.open ? await exp.open(() => {}) : await openCsvStream(exp), t);
}

/**
 * The fleet's workspaces CSV as GET /api/v1/export/workspaces.csv writes it on PostgreSQL (its COPY), and as the
 * file writer writes it from rows read a page at a time (the embedded database's way, and PostgreSQL's before
 * the COPY), and beside them PostgreSQL's own `COPY (…) TO STDOUT WITH CSV` of the same rows (every column of the
 * workspaces table, in the list's default order): rows/s of each.
 */
export async function workspacesCsvAndCopy(db: Db, pool: Pool) {
  const exp = workspacesExport(db, FLEET, {}, { now });
  let t = performance.now();
  const csv = await linesPerSecond(await exp.open!(() => {}), t);
  t = performance.now();
  const writer = await linesPerSecond(await openCsvStream(exp), t);
  const client = await pool.connect();
  try {
    t = performance.now();
    const copy = client.query(
      copyTo(
        "copy (select * from workspaces where deleted_at is null order by total_bytes desc, id) to stdout with csv header",
      ),
    );
    let lines = -1;
    for await (const chunk of copy as AsyncIterable<Buffer>) lines += countLines(chunk);
    return { csv, writer, copy: { rows: lines, perSec: lines / ((performance.now() - t) / 1000) } };
  } finally {
    client.release();
  }
}

/**
 * A whole read of a history table that grows with workspaces x days (its partitions included), which a page's
 * query should read by a range of an index. (fleet_delta grows with days and series only: a few thousand rows.)
 */
export const SEQ_SCAN_OF_HISTORY = /Seq Scan on (root_daily|workspace_daily|reports|root_usage)\w*/;

export type PagePlan = { page: string; text: string; params: unknown[]; plan: string[] };

/**
 * The plan of every query each page runs (read on `f.explainDb`, whose queries are recorded, and explained on
 * `f.pool`), in the pages' order; `explain` the options of EXPLAIN.
 */
export async function pagePlans(f: { explainDb: Db; pool: Pool }, explain: string): Promise<PagePlan[]> {
  const out: PagePlan[] = [];
  for (const [page, run] of Object.entries(pages(f.explainDb))) {
    capture = [];
    await run();
    const queries = capture.filter((c) => !/from "?(settings|finding_rules)"?/i.test(c.text));
    capture = null;
    for (const c of queries) {
      const plan = (await f.pool.query(`explain (${explain}) ${c.text}`, c.params)).rows.map(
        (r) => r["QUERY PLAN"] as string,
      );
      out.push({ page, ...c, plan });
    }
  }
  return out;
}

export async function explainPages(f: { explainDb: Db; pool: Pool }, log: (s: string) => void, plans: string[]) {
  log(`\nQuery plans at full size (EXPLAIN (ANALYZE, BUFFERS)); a sequential scan of a history table is marked !!:`);
  let page = "";
  const all = await pagePlans(f, "analyze, buffers");
  for (const c of all) {
    if (c.page !== page) {
      page = c.page;
      const n = all.filter((p) => p.page === page).length;
      log(`\n## ${page}: ${n} queries`);
      plans.push(`## ${page}: ${n} queries`);
    }
    const scans = c.plan
      .filter((l) => /Scan|Execution Time/.test(l))
      .map(
        (l) =>
          `${SEQ_SCAN_OF_HISTORY.test(l) ? "!! " : "   "}${l
            .replace(/\s+\(cost=[^)]*\)/, "")
            .replace(/\(actual time=[\d.]+\.\./, "(time=")
            .trim()}`,
      );
    plans.push(`\n${c.text}\n-- params: ${JSON.stringify(c.params)}\n${c.plan.join("\n")}\n`);
    log(`- ${c.text.replace(/\s+/g, " ").slice(0, 110)}…`);
    for (const l of scans) log(`  ${l}`);
  }
}
