// History at fleet scale: a synthetic fleet (10,000 workspaces x 30 roots) with 90 days of daily roll-ups and
// 14 days of raw reports in real Postgres, against the same fleet with a tenth of the history. Times the pages'
// queries, a cleanup preview for the whole fleet and the daily usage CSV export of the last 7 days (the
// product's own export code, CSV text included) on both (target: full within 1.2x of a tenth), prints the plans
// of the pages' queries at full size, and ingest's rate at full size against a fleet without history (target 0.8x).
// /metrics (the whole exposition) is timed with the pages. Each page is also set against the floor, in the same run: a plain group-by of the latest table (what any page
// about the fleet's present must at least read), `ratio <page> / floor`. The plans go to bench-results/ too.
// --pages-only: the full fleet's pages, floor and plans only (no tenth of the history, no ingest rates).
//   node --conditions=react-server --import tsx scripts/bench/scale.ts [--workspaces N] [--days N] [--raw-per-day N]
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { getRules, listFindings } from "@/lib/db/queries/findings";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { CONNECTION_OPTIONS, openPostgres, type Database } from "@/lib/db/open";
import { ensurePartitions } from "@/lib/db/partitions";
import * as schema from "@/lib/db/schema";
import { createScratchPostgres } from "@/lib/db/testing";
import type { Db } from "@/lib/db/types";
import { openCsvStream } from "@/lib/csv/stream";
import { usageExport } from "@/lib/export/usage";
import { WORKSPACE_SORT_COLUMNS } from "@/lib/validations/workspaces";
import { ingestReport } from "@/lib/ingest/report";
import { addDaysTo, eachDay, median, utcDayOf } from "@/lib/series";
import { generateFleet, rootKey, type FleetShape } from "../lib/scale-fleet";
import { FLEET } from "@/lib/db/scope";
import { renderMetrics } from "@/lib/metrics/scrape";
import { rewriteKeptRules, rewriteKeptWorkspaces } from "@/lib/db/queries/kept-findings";
import { rewriteFleetGrowth, rewriteWorkspaceGrowth } from "@/lib/db/queries/root-growth";
import { rewriteFleetSeries, rewriteWorkspaceSeries } from "@/lib/db/queries/workspace-series";

const { values: args } = parseArgs({
  options: {
    workspaces: { type: "string", default: "10000" },
    roots: { type: "string", default: "30" },
    days: { type: "string", default: "90" },
    "raw-days": { type: "string", default: "14" },
    "raw-per-day": { type: "string", default: "1" },
    runs: { type: "string", default: "7" },
    "ingest-reports": { type: "string", default: "1500" },
    "pages-only": { type: "boolean", default: false },
  },
});
const n = (k: keyof typeof args) => Number(args[k]);
const FULL: FleetShape = {
  workspaces: n("workspaces"),
  roots: n("roots"),
  days: n("days"),
  rawDays: n("raw-days"),
  rawPerDay: n("raw-per-day"),
};
const TENTH: FleetShape = {
  ...FULL,
  days: Math.max(1, Math.round(FULL.days / 10)),
  rawDays: Math.max(1, Math.round(FULL.rawDays / 10)),
};
const EMPTY: FleetShape = { ...FULL, days: 1, rawDays: 0 };
const EXPORT_DAYS = 7;
const plans: string[] = [];
const log = (s: string) => console.log(s);

type Fleet = { label: string; database: Database; explainDb: Db; pool: Pool; drop: () => Promise<void> };
let capture: { text: string; params: unknown[] }[] | null = null;

async function makeFleet(label: string, shape: FleetShape): Promise<Fleet> {
  const scratch = await createScratchPostgres();
  const database = await openPostgres(scratch.url, 10);
  const today = utcDayOf(new Date());
  await ensurePartitions(database.db, eachDay(addDaysTo(today, -shape.rawDays), today), today);
  const pool = new Pool({ connectionString: scratch.url, max: 4, options: CONNECTION_OPTIONS });
  const t = performance.now();
  log(
    `${label}: ${shape.workspaces} workspaces x ${shape.roots} roots, ${shape.days} days of roll-ups, ${shape.rawDays} days x ${shape.rawPerDay} raw reports/day`,
  );
  await generateFleet(pool, shape, log);
  log(`  generated in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  // The fleet was written past ingest, as an upgrade finds it: its kept findings are rewritten whole, as start
  // and the hourly maintenance do.
  const k = performance.now();
  await database.db.transaction(async (tx) => rewriteKeptRules(tx, await getRules(tx)));
  const g = performance.now();
  await database.db.transaction((tx) => rewriteFleetGrowth(tx));
  log(`  root growth and agent rows rewritten for the whole fleet in ${(performance.now() - g).toFixed(0)} ms`);
  const ws = performance.now();
  await database.db.transaction((tx) => rewriteFleetSeries(tx));
  log(`  workspace series rewritten for the whole fleet in ${(performance.now() - ws).toFixed(0)} ms`);
  await pool.query("analyze kept_findings, root_growth, root_growth_days, workspace_agents, workspace_series");
  const [{ n: keptRows }] = (await pool.query("select count(*)::int as n from kept_findings")).rows;
  log(`  kept findings rewritten for the whole fleet in ${(performance.now() - k).toFixed(0)} ms (${keptRows} rows)`);
  // A second client on the same database whose queries are recorded, to explain them.
  const explainDb = drizzle({
    client: pool,
    schema,
    logger: { logQuery: (text, params) => capture?.push({ text, params }) },
  }) as unknown as Db;
  return {
    label,
    database,
    explainDb,
    pool,
    drop: async () => {
      await database.close();
      await pool.end();
      await scratch.drop();
    },
  };
}

const now = new Date();
// The floor: a group-by over the latest table, per agent and per workspace.
const FLOORS = {
  "floor: sum by agent": "select agent, sum(bytes) from root_latest group by agent",
  "floor: sum by workspace": "select workspace_id, sum(bytes) from root_latest group by workspace_id",
};
const floors = (pool: Pool): Record<string, () => Promise<unknown>> =>
  Object.fromEntries(Object.entries(FLOORS).map(([name, q]) => [name, () => pool.query(q)]));

const pages = (db: Db): Record<string, () => Promise<unknown>> => ({
  "fleet overview (90d)": () => getFleetOverview(db, { range: "90d", now }),
  ...Object.fromEntries(
    WORKSPACE_SORT_COLUMNS.map((sort) => [
      `workspaces page 1 by ${sort}`,
      () => listWorkspaces(db, FLEET, { now, sort }),
    ]),
  ),
  "workspace detail 90d": () => getWorkspaceDetail(db, FLEET, "ws-004242", { range: "90d", now }),
  "agent claude-code (90d)": () => getAgentDetail(db, "claude-code", { range: "90d", now }),
  "findings (first page)": () => listFindings(db, FLEET, { now }),
  // The whole exposition, text included, as GET /metrics writes it.
  "/metrics scrape": () => renderMetrics(db, now),
  "cleanup preview, whole fleet": () =>
    previewRun(
      db,
      { recipe: "claude-code-sessions", params: { olderThanDays: 30 }, scope: { all: true }, minAgeHours: 24 },
      { now },
    ),
});

/** The daily usage CSV of the whole fleet over the last EXPORT_DAYS days, written as the route writes it; rows/s. */
async function exportRate(db: Db): Promise<{ rows: number; perSec: number }> {
  const t = performance.now();
  const exp = usageExport(
    db,
    FLEET,
    { range: "custom", from: addDaysTo(utcDayOf(now), 1 - EXPORT_DAYS), to: utcDayOf(now), granularity: "daily" },
    { now },
  );
  // PostgreSQL's COPY where the route uses it, as the route does.
  const reader = (exp.open ? await exp.open(() => {}) : await openCsvStream(exp)).getReader();
  let lines = -1; // the header
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const b of value) if (b === 10) lines++;
  }
  return { rows: lines, perSec: lines / ((performance.now() - t) / 1000) };
}

async function explainPages(f: Fleet) {
  log(`\nQuery plans at full size (EXPLAIN (ANALYZE, BUFFERS)); a sequential scan of a history table is marked !!:`);
  for (const [name, run] of Object.entries(pages(f.explainDb))) {
    capture = [];
    await run();
    const queries = capture.filter((c) => !/from "?(settings|finding_rules)"?/i.test(c.text));
    capture = null;
    log(`\n## ${name}: ${queries.length} queries`);
    plans.push(`## ${name}: ${queries.length} queries`);
    for (const c of queries) {
      const plan = (await f.pool.query(`explain (analyze, buffers) ${c.text}`, c.params)).rows.map(
        (r) => r["QUERY PLAN"] as string,
      );
      const scans = plan
        .filter((l) => /Scan|Execution Time/.test(l))
        .map((l) => {
          const seqHistory = /Seq Scan on (root_daily|workspace_daily|fleet_delta|reports|root_usage)/.test(l);
          return `${seqHistory ? "!! " : "   "}${l
            .replace(/\s+\(cost=[^)]*\)/, "")
            .replace(/\(actual time=[\d.]+\.\./, "(time=")
            .trim()}`;
        });
      plans.push(`\n${c.text}\n-- params: ${JSON.stringify(c.params)}\n${plan.join("\n")}\n`);
      log(`- ${c.text.replace(/\s+/g, " ").slice(0, 110)}…`);
      for (const l of scans) log(`  ${l}`);
    }
  }
}

/** Rows/s of ingest (16 concurrent callers, group commit) of `count` reports newer than each workspace's latest. */
async function ingestRate(f: Fleet, count: number): Promise<number> {
  const reports = Array.from({ length: count }, (_, j) => {
    const i = 1 + ((j * 7919) % FULL.workspaces);
    const ws = { id: `ws-${String(i).padStart(6, "0")}`, name: `dev-${i}`, owner: `owner-${i % 500}` };
    return {
      version: 1 as const,
      id: randomUUID(),
      collectedAt: new Date(Date.now() + 60_000 + j).toISOString(),
      workspace: ws,
      volume: { totalBytes: 100 * 2 ** 30, freeBytes: 40 * 2 ** 30 },
      reporter: { version: "bench", scanMs: 100 },
      roots: Array.from({ length: FULL.roots }, (_, k) => {
        const agent = ["claude-code", "codex", "gemini", "goose", "opencode", "other"][k % 6];
        return {
          key: rootKey(agent, k),
          kind: (["tool", "module", "legacy", "script-data"] as const)[k % 4],
          agent,
          path: `.r/${k}`,
          bytes: (8 + j + k) * 2 ** 20,
          apparentBytes: (8 + j + k) * 2 ** 20,
          files: 100,
          dirs: 10,
        };
      }),
    };
  });
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < reports.length) {
        const r = reports[next++];
        await ingestReport(f.database.db, r.workspace.id, r);
      }
    }),
  );
  return (count * FULL.roots) / ((performance.now() - t) / 1000);
}

/**
 * The kept aggregates' share of ingest (findings, root growth and workspace series): ms to rewrite the kept rows of the workspaces that `count` reports of
 * ingestRate go to, 16 workspaces a transaction (as ingest's group commit), one after another.
 */
async function keptRewriteMs(f: Fleet, count: number): Promise<number> {
  const rules = await getRules(f.database.db);
  const ids = Array.from(
    { length: count },
    (_, j) => `ws-${String(1 + ((j * 7919) % FULL.workspaces)).padStart(6, "0")}`,
  );
  const t = performance.now();
  for (let i = 0; i < ids.length; i += 16) {
    await f.database.db.transaction(async (tx) => {
      await rewriteKeptWorkspaces(tx, rules, ids.slice(i, i + 16));
      await rewriteWorkspaceGrowth(tx, ids.slice(i, i + 16));
      await rewriteWorkspaceSeries(tx, ids.slice(i, i + 16));
    });
  }
  return performance.now() - t;
}

/** Median ms of each query, the fleets' reads interleaved (each after two warm-up reads). */
async function timeAll(sets: Record<string, () => Promise<unknown>>[], runs: number): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const name of Object.keys(sets[0])) {
    for (let i = 0; i < 2; i++) for (const set of sets) await set[name]();
    const times: number[][] = sets.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [j, set] of sets.entries()) {
        const t = performance.now();
        await set[name]();
        times[j].push(performance.now() - t);
      }
    }
    out.set(
      name,
      times.map((ts) => median(ts)!),
    );
  }
  return out;
}

const fleets: Fleet[] = [];
try {
  const pagesOnly = args["pages-only"];
  const full = await makeFleet("full", FULL);
  fleets.push(full);
  const tenth = pagesOnly ? null : await makeFleet("tenth", TENTH);
  if (tenth) fleets.push(tenth);
  const runs = n("runs");
  const loadBefore = os.loadavg();
  const timings = await timeAll(
    [
      { ...floors(full.pool), ...pages(full.database.db) },
      ...(tenth ? [{ ...floors(tenth.pool), ...pages(tenth.database.db) }] : []),
    ],
    runs,
  );
  const exportFull = [await exportRate(full.database.db), await exportRate(full.database.db)];
  const exportTenth = tenth ? [await exportRate(tenth.database.db), await exportRate(tenth.database.db)] : [];
  const loadAfter = os.loadavg();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  log(
    `\nload average (1, 5, 15 min) on ${os.cpus().length} cores: ${load(loadBefore)} before the timings, ${load(loadAfter)} after`,
  );

  if (tenth) {
    log(
      `\nTimes at full history (${FULL.days} days) and at a tenth (${TENTH.days} days), median of ${runs}; target: full / tenth <= 1.20`,
    );
    for (const [name, [a, b]] of timings) {
      log(
        `${name.padEnd(36)} ${a.toFixed(1).padStart(8)} ms  ${b.toFixed(1).padStart(8)} ms  ratio ${(a / b).toFixed(2)}${a / b <= 1.2 ? "" : "  (NOT met)"}`,
      );
    }
    const [ef, et] = [Math.max(...exportFull.map((e) => e.perSec)), Math.max(...exportTenth.map((e) => e.perSec))];
    log(
      `${`daily CSV export, ${EXPORT_DAYS} days`.padEnd(36)} ${ef.toFixed(0).padStart(8)} rows/s ${et.toFixed(0).padStart(8)} rows/s  ratio (tenth / full) ${(et / ef).toFixed(2)}${et / ef <= 1.2 ? "" : "  (NOT met)"}  (${exportFull[0].rows} and ${exportTenth[0].rows} rows)`,
    );
  } else {
    const ef = Math.max(...exportFull.map((e) => e.perSec));
    log(`daily CSV export, ${EXPORT_DAYS} days: ${ef.toFixed(0)} rows/s (${exportFull[0].rows} rows)`);
  }

  const floorMs = timings.get("floor: sum by agent")![0];
  const floorWsMs = timings.get("floor: sum by workspace")![0];
  log(
    `\nAgainst the floor at ${FULL.workspaces} workspaces x ${FULL.roots} roots (${FULL.workspaces * FULL.roots} rows of root_latest), median of ${runs}: ` +
      `sum by agent ${floorMs.toFixed(1)} ms, sum by workspace ${floorWsMs.toFixed(1)} ms; target: at most 3`,
  );
  for (const [name, [a]] of timings) {
    if (name.startsWith("floor")) continue;
    const r = a / floorMs;
    log(
      `ratio ${name} / floor = ${r.toFixed(2)}${r <= 3 ? "" : "  (NOT met)"}   (${a.toFixed(1)} ms; against the per-workspace floor ${(a / floorWsMs).toFixed(2)})`,
    );
  }

  await explainPages(full);
  fs.mkdirSync("bench-results", { recursive: true });
  const file = `bench-results/scale-plans-${FULL.workspaces}.txt`;
  fs.writeFileSync(file, `${plans.join("\n")}\n`);
  log(`\nthe plans in full: ${file}`);

  {
    // What the kept findings cost ingest, on the full fleet: the ingest of `count` reports (with them), and
    // the rewrites of the same workspaces' kept rows alone.
    const count = n("ingest-reports");
    const rate = await ingestRate(full, count);
    const ingestMs = ((count * FULL.roots) / rate) * 1000;
    const keptMs = await keptRewriteMs(full, count);
    log(
      `\ningest of ${count} reports x ${FULL.roots} roots into the full fleet: ${rate.toFixed(0)} rows/s (${ingestMs.toFixed(0)} ms, 16 callers); ` +
        `the kept aggregates' rewrites of the same workspaces alone, a transaction of 16 at a time: ${keptMs.toFixed(0)} ms ` +
        `(${(keptMs / count).toFixed(2)} ms a report); ingest without them at most ${((count * FULL.roots) / (Math.max(1, ingestMs - keptMs) / 1000)).toFixed(0)} rows/s`,
    );
  }

  if (!pagesOnly) {
    const empty = await makeFleet("empty (no history)", EMPTY);
    fleets.push(empty);
    const count = n("ingest-reports");
    const rates = { full: [] as number[], empty: [] as number[] };
    for (let round = 0; round < 2; round++) {
      rates.empty.push(await ingestRate(empty, count));
      rates.full.push(await ingestRate(full, count));
    }
    const [rf, re] = [median(rates.full)!, median(rates.empty)!];
    log(`\ningest without HTTP (${count} reports x ${FULL.roots} roots, 16 callers, group commit), median of 2:`);
    log(
      `full history ${rf.toFixed(0)} rows/s, no history ${re.toFixed(0)} rows/s: ratio ${(rf / re).toFixed(2)} (target >= 0.80${rf / re >= 0.8 ? "" : ": NOT met"})`,
    );
  }
} finally {
  for (const f of fleets) await f.drop();
}
