// History at fleet scale: a synthetic fleet (10,000 workspaces x 30 roots) with 90 days of daily roll-ups and
// 14 days of raw reports in real Postgres, against the same fleet with a tenth of the history. Times the pages'
// queries, a cleanup preview for the whole fleet and the daily usage CSV export of the last 7 days (the
// product's own export code, CSV text included) on both (target: full within 1.2x of a tenth), prints the plans
// of the pages' queries at full size, and ingest's rate at full size against a fleet without history (target 0.8x).
// /metrics (the whole exposition) is timed with the pages. Each page is also set against the floor, in the same run: a plain group-by of the latest table (what any page
// about the fleet's present must at least read), `ratio <page> / floor`. The plans go to bench-results/ too.
// --pages-only: the full fleet's pages, floor and plans only (no tenth of the history, no ingest rates).
// --baseline-workspaces N: a second fleet of N workspaces (same roots and days) whose workspace page is timed
// beside the full fleet's (a workspace's page should not slow as the fleet grows).
// --keep leaves the full fleet's database (its URL printed); --database URL times a fleet so kept instead of
// generating one (its kept aggregates are rewritten all the same).
// --server: also the built Next server's peak memory serving the pages' APIs, /metrics and the workspaces CSV on
// the full fleet (scale-server.ts; builds the app first when its build is stale).
//   node --conditions=react-server --import tsx scripts/bench/scale.ts [--workspaces N] [--days N] [--raw-per-day N]
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { Pool } from "pg";
import { getRules } from "@/lib/db/queries/findings";
import { CONNECTION_OPTIONS, openPostgres, type Database } from "@/lib/db/open";
import { ensurePartitions } from "@/lib/db/partitions";
import { createScratchPostgres } from "@/tests/support/db";
import type { Db } from "@/lib/db/types";
import { addDaysTo, eachDay, median, utcDayOf } from "@/lib/series";
import { generateFleet, type FleetShape } from "../lib/scale-fleet";
import { recordMeasure } from "../lib/bench-results";
import { rewriteKeptRules } from "@/lib/db/queries/kept-findings";
import { rewriteFleetGrowth } from "@/lib/db/queries/root-growth";
import { rewriteFleetSeries } from "@/lib/db/queries/workspace-series";
import { keepChangeBases } from "@/lib/db/queries/change-7d";
import { ingestRate } from "./lib/scale-ingest";
import { serverMemory } from "./lib/scale-server";
import {
  explainPages,
  EXPORT_DAYS,
  exportRate,
  floorOf,
  floors,
  OPT_IN_PAGES,
  pages,
  recordingDb,
  workspacesCsvAndCopy,
} from "./lib/scale-pages";

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
    "baseline-workspaces": { type: "string", default: "0" },
    keep: { type: "boolean", default: false },
    database: { type: "string" },
    server: { type: "boolean", default: false },
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
const plans: string[] = [];
const log = (s: string) => console.log(s);

type Fleet = { label: string; url: string; database: Database; explainDb: Db; pool: Pool; drop: () => Promise<void> };

async function makeFleet(label: string, shape: FleetShape, loaded?: string): Promise<Fleet> {
  const scratch = loaded ? { url: loaded, drop: async () => {} } : await createScratchPostgres();
  const database = await openPostgres(scratch.url, 10);
  const pool = new Pool({ connectionString: scratch.url, max: 4, options: CONNECTION_OPTIONS });
  log(
    `${label}: ${shape.workspaces} workspaces x ${shape.roots} roots, ${shape.days} days of roll-ups, ${shape.rawDays} days x ${shape.rawPerDay} raw reports/day${loaded ? ` (loaded before: ${loaded})` : ""}`,
  );
  if (!loaded) {
    const today = utcDayOf(new Date());
    await ensurePartitions(database.db, eachDay(addDaysTo(today, -shape.rawDays), today), today);
    const t = performance.now();
    await generateFleet(pool, shape);
    log(`  generated in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  // The fleet was written past ingest, as an upgrade finds it: its kept aggregates are rewritten whole, as start
  // and the hourly maintenance do, each under the app's statement timeout (the pool's).
  const timed = async (what: string, fn: () => Promise<void>) => {
    const t = performance.now();
    await fn();
    log(`  ${what} rewritten for the whole fleet in ${(performance.now() - t).toFixed(0)} ms`);
  };
  await timed("kept findings", () => database.db.transaction(async (tx) => rewriteKeptRules(tx, await getRules(tx))));
  await timed("root growth and agent rows", () => database.db.transaction((tx) => rewriteFleetGrowth(tx)));
  await timed("workspace series", () => database.db.transaction((tx) => rewriteFleetSeries(tx)));
  await timed("7-day change's bases", () => keepChangeBases(database.db, new Date()));
  await pool.query("analyze kept_findings, root_growth_days, workspace_agents, workspace_series");
  const [{ n: keptRows }] = (await pool.query("select count(*)::int as n from kept_findings")).rows;
  log(`  ${keptRows} rows of kept findings`);
  // A second client on the same database whose queries are recorded, to explain them.
  const explainDb = recordingDb(pool);
  return {
    label,
    url: scratch.url,
    database,
    explainDb,
    pool,
    drop: async () => {
      await database.close();
      await pool.end();
      if (args.keep && label === "full") log(`\nthe full fleet's database is kept: ${scratch.url}`);
      else await scratch.drop();
    },
  };
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

/** The machine, in the output: compare figures between runs only on the same. */
async function describeMachine(pool: Pool): Promise<string> {
  const settings = (
    await pool.query(`select name, current_setting(name) as value from pg_settings where name in ('shared_buffers',
      'work_mem', 'effective_cache_size', 'max_parallel_workers_per_gather', 'random_page_cost', 'maintenance_work_mem')
      order by name`)
  ).rows.map((r: { name: string; value: string }) => `${r.name}=${r.value}`);
  const [{ server_version: version }] = (await pool.query("show server_version")).rows;
  return `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB memory; PostgreSQL ${version}: ${settings.join(", ")}`;
}

const fleets: Fleet[] = [];
try {
  const pagesOnly = args["pages-only"];
  const full = await makeFleet("full", FULL, args.database);
  fleets.push(full);
  log(await describeMachine(full.pool));
  const baselineWorkspaces = n("baseline-workspaces");
  const baseline =
    baselineWorkspaces > 0 ? await makeFleet("baseline", { ...FULL, workspaces: baselineWorkspaces }) : null;
  if (baseline) fleets.push(baseline);
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
  log(
    `\nAgainst each page's floor (scale-pages.ts: the cheapest query reading the same figures) at ${FULL.workspaces} workspaces x ${FULL.roots} roots (${FULL.workspaces * FULL.roots} rows of root_latest), median of ${runs}; target: at most 3`,
  );
  for (const [name, [a]] of timings)
    if (name.startsWith("floor")) log(`${name.padEnd(40)} ${a.toFixed(1).padStart(8)} ms`);
  let worst = { name: "", r: 0 };
  for (const [name, [a]] of timings) {
    if (name.startsWith("floor")) continue;
    const floor = floorOf(name);
    const r = a / timings.get(floor)![0];
    const optIn = OPT_IN_PAGES.has(name);
    if (r > worst.r && !optIn) worst = { name, r };
    log(
      `ratio ${name} / floor = ${r.toFixed(2)}${r <= 3 || optIn ? "" : "  (NOT met)"}   (${a.toFixed(1)} ms; ${floor.slice(7)}; against sum by agent ${(a / floorMs).toFixed(2)})${optIn ? "  (opt-in: no goal)" : ""}`,
    );
  }
  log(
    `worst page / floor (${worst.name}): ${recordMeasure(`fleet pages at ${FULL.workspaces} workspaces / floor (worst)`, worst.r, { op: "<=", target: 3 })}`,
  );

  const csv = [
    await workspacesCsvAndCopy(full.database.db, full.pool),
    await workspacesCsvAndCopy(full.database.db, full.pool),
  ];
  const best = (k: "csv" | "writer" | "copy") => Math.max(...csv.map((c) => c[k].perSec));
  const [csvRate, writerRate, copyRate] = [best("csv"), best("writer"), best("copy")];
  log(
    `\nworkspaces CSV export, whole fleet (${csv[0].csv.rows} rows): ${csvRate.toFixed(0)} rows/s against COPY … TO STDOUT WITH CSV ${copyRate.toFixed(0)} rows/s (${csv[0].copy.rows} rows), best of 2: ratio ${recordMeasure(`workspaces CSV at ${FULL.workspaces} workspaces / COPY`, csvRate / copyRate, { op: ">=", target: 0.5 })}`,
  );
  log(
    `the same file by the writer from rows (the embedded database's way; ${csv[0].writer.rows} rows): ${writerRate.toFixed(0)} rows/s, ratio ${(writerRate / copyRate).toFixed(2)}`,
  );

  if (baseline) {
    const detail = pages(full.database.db)["workspace detail 90d"];
    const small = pages(baseline.database.db)["workspace detail 90d"];
    const [[a, b]] = (await timeAll([{ detail }, { detail: small }], runs)).values();
    log(
      `workspace detail 90d at ${FULL.workspaces} workspaces ${a.toFixed(1)} ms, at ${baselineWorkspaces} ${b.toFixed(1)} ms: ratio ${recordMeasure(`a workspace's page at ${FULL.workspaces} / at ${baselineWorkspaces} workspaces`, a / b, { op: "<=", target: 1.5 })}`,
    );
  }

  if (args.server) {
    const rss = await serverMemory(full.url, log);
    log(
      `the server's peak memory at ${FULL.workspaces} workspaces: ${recordMeasure(`Next server's peak RSS at ${FULL.workspaces} workspaces, MiB`, rss / 2 ** 20, { op: "<=", target: 1024 })}`,
    );
  }

  await explainPages(full, log, plans);
  fs.mkdirSync("bench-results", { recursive: true });
  const file = `bench-results/scale-plans-${FULL.workspaces}.txt`;
  fs.writeFileSync(file, `${plans.join("\n")}\n`);
  log(`\nthe plans in full: ${file}`);

  if (!pagesOnly) {
    const empty = await makeFleet("empty (no history)", EMPTY);
    fleets.push(empty);
    const count = n("ingest-reports");
    const rates = { full: [] as number[], empty: [] as number[], tenth: [] as number[] };
    for (let round = 0; round < 2; round++) {
      rates.empty.push(await ingestRate(empty, FULL, count));
      rates.full.push(await ingestRate(full, FULL, count));
      rates.tenth.push(await ingestRate(tenth!, FULL, count));
    }
    const [rf, re, rt] = [median(rates.full)!, median(rates.empty)!, median(rates.tenth)!];
    log(`\ningest without HTTP (${count} reports x ${FULL.roots} roots, 16 callers, group commit), median of 2:`);
    log(
      `full history ${rf.toFixed(0)} rows/s, no history ${re.toFixed(0)} rows/s: ratio ${recordMeasure(`ingest at ${FULL.days} days of history / into an empty database`, rf / re, { op: ">=", target: 0.8 })}`,
    );
    // A fleet without history has no growth to keep (root_growth_days, the agents' rows): the tenth, which has, tells
    // whether ingest slows as history grows or only once there is growth to record.
    log(`a tenth of the history (${TENTH.days} days) ${rt.toFixed(0)} rows/s: full / tenth ${(rf / rt).toFixed(2)}`);
  }
} finally {
  for (const f of fleets) await f.drop();
}
