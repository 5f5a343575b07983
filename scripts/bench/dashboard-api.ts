// Times the dashboard's fleet queries on the embedded database, for a fleet with short and with 10x longer
// history: the fleet overview and the workspaces table must cost the same (they read the workspaces table,
// root_latest and roll-ups, never history).
//   node --conditions=react-server --import tsx scripts/bench/dashboard-api.ts [workspaces=100] [days=30] [runs=20]
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openEmbedded } from "@/lib/db/open";
import { rowsOf, type Db } from "@/lib/db/types";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { listFindings } from "@/lib/db/queries/findings";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { median } from "@/lib/series";
import { FLEET } from "@/lib/db/scope";

const workspaces = Number(process.argv[2] ?? 100);
const shortDays = Number(process.argv[3] ?? 30);
const runs = Number(process.argv[4] ?? 20);
const now = new Date();

type Timings = Record<string, number>;
type Queries = Record<string, () => Promise<unknown>>;

/** Seeds a fleet with `days` of history in a fresh embedded database and returns the queries to time on it. */
async function seeded(days: number): Promise<{ queries: Queries; close: () => Promise<void> }> {
  const database = await openEmbedded("memory://");
  const db: Db = database.db;
  const t0 = performance.now();
  const result = await seedDemoFleet(db, {
    workspaces,
    days,
    simulateDays: shortDays * 10,
    now,
    seed: 7,
    onProgress: (done, total) => process.stderr.write(`\rseeding ${done}/${total}`),
  });
  process.stderr.write("\n");
  console.log(
    `seeded days=${days} workspaces=${result.workspaces} reports=${result.reports} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // Statistics as fresh as the embedded database keeps them itself (lib/db/open.ts) after its last writes.
  await db.execute(sql`analyze`);
  const sizes = rowsOf<Record<string, number>>(
    await db.execute(sql`select (select count(*) from root_latest)::int as root_latest,
    (select count(*) from root_daily)::int as root_daily, (select count(*) from fleet_delta)::int as fleet_delta,
    (select count(*) from root_usage)::int as root_usage`),
  );
  console.log(
    `days=${days} rows: ${Object.entries(sizes[0])
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")}`,
  );
  const first = (await listWorkspaces(db, FLEET, { now, pageSize: 1 })).rows[0]?.id ?? "";
  return {
    queries: {
      "fleet overview 30d": () => getFleetOverview(db, { range: "30d", now }),
      "fleet overview 7d": () => getFleetOverview(db, { range: "7d", now }),
      "workspaces page 1 by total": () => listWorkspaces(db, FLEET, { now }),
      "workspaces by change7d": () => listWorkspaces(db, FLEET, { now, sort: "change7d" }),
      "workspaces search q": () => listWorkspaces(db, FLEET, { now, q: "ali", sort: "name", dir: "asc" }),
      "findings list": () => listFindings(db, FLEET, { now }),
      "agent claude-code 30d": () => getAgentDetail(db, "claude-code", { range: "30d", now }),
      "workspace detail 30d": () => getWorkspaceDetail(db, FLEET, first, { range: "30d", now }),
    },
    close: () => database.close(),
  };
}

// Both fleets are timed in alternation, so a change of load on the machine hits both alike.
const a = await seeded(shortDays);
const b = await seeded(shortDays * 10);
const short: Timings = {};
const long: Timings = {};
for (const name of Object.keys(a.queries)) {
  for (let i = 0; i < 3; i++) {
    await a.queries[name]();
    await b.queries[name]();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await a.queries[name]();
    ta.push(performance.now() - t);
    t = performance.now();
    await b.queries[name]();
    tb.push(performance.now() - t);
  }
  short[name] = median(ta)!;
  long[name] = median(tb)!;
}
await a.close();
await b.close();
console.log(
  `ratio (${shortDays * 10} days / ${shortDays} days, median of ${runs}), target < 1.2 for the fleet overview and the workspaces table:`,
);
for (const k of Object.keys(short))
  console.log(`${k}: ${short[k].toFixed(2)} -> ${long[k].toFixed(2)} ms, ratio ${(long[k] / short[k]).toFixed(2)}`);
