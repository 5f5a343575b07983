// Times the dashboard's fleet queries on the embedded database, for a fleet with short and with 10x longer
// history: the fleet overview and the workspaces table must cost the same (they read the workspaces table,
// root_latest and roll-ups, never history).
//   node --import tsx scripts/bench/dashboard-api.ts [workspaces=200] [days=30] [runs=20]
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openEmbedded } from "@/lib/db/open";
import type { Db } from "@/lib/db/types";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { listFindings } from "@/lib/db/queries/findings";
import { getWorkspaceDetail, listWorkspaces } from "@/lib/db/queries/workspaces";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { median } from "@/lib/series";

const workspaces = Number(process.argv[2] ?? 200);
const shortDays = Number(process.argv[3] ?? 30);
const runs = Number(process.argv[4] ?? 20);
const now = new Date();

async function time(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return median(ms)!;
}

type Timings = Record<string, number>;

async function measure(days: number): Promise<Timings> {
  const database = await openEmbedded("memory://");
  try {
    const db: Db = database.db;
    const t0 = performance.now();
    const seeded = await seedDemoFleet(db, { workspaces, days, now, seed: 7 });
    const seedMs = performance.now() - t0;
    console.log(`seeded days=${days} workspaces=${seeded.workspaces} reports=${seeded.reports} in ${(seedMs / 1000).toFixed(1)} s`);
    const sizes = (await db.execute(sql`select (select count(*) from root_latest)::int as root_latest,
      (select count(*) from root_daily)::int as root_daily, (select count(*) from fleet_delta)::int as fleet_delta,
      (select count(*) from root_usage)::int as root_usage`)) as unknown as { rows: Record<string, number>[] };
    console.log(`days=${days} rows: ${Object.entries(sizes.rows[0]).map(([k, v]) => `${k}=${v}`).join(" ")}`);
    const first = (await listWorkspaces(db, { now, pageSize: 1 })).rows[0]?.id ?? "";
    const out: Timings = {
      "fleet overview 30d": await time(() => getFleetOverview(db, { range: "30d", now })),
      "fleet overview 7d": await time(() => getFleetOverview(db, { range: "7d", now })),
      "workspaces page 1 by total": await time(() => listWorkspaces(db, { now })),
      "workspaces by change7d": await time(() => listWorkspaces(db, { now, sort: "change7d" })),
      "workspaces search q": await time(() => listWorkspaces(db, { now, q: "ali", sort: "name", dir: "asc" })),
      "findings list": await time(() => listFindings(db, { now })),
      "agent claude-code 30d": await time(() => getAgentDetail(db, "claude-code", { range: "30d", now })),
      "workspace detail 30d": await time(() => getWorkspaceDetail(db, first, { range: "30d", now })),
    };
    for (const [k, v] of Object.entries(out)) console.log(`days=${days} ${k}: ${v.toFixed(2)} ms (median of ${runs})`);
    return out;
  } finally {
    await database.close();
  }
}

const short = await measure(shortDays);
const long = await measure(shortDays * 10);
console.log(`ratio (${shortDays * 10} days / ${shortDays} days), target < 1.2 for the fleet overview and the workspaces table:`);
for (const k of Object.keys(short)) console.log(`${k}: ${short[k].toFixed(2)} -> ${long[k].toFixed(2)} ms, ratio ${(long[k] / short[k]).toFixed(2)}`);
