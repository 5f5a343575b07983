// The usage by team at fleet scale (docs/usage.md): the scale bench's synthetic fleet (scripts/lib/scale-fleet.ts)
// with a year of daily roll-ups, five organizations and 100 groups (each of the 500 owners in one group, a third of
// them in a second), in real Postgres. Times GET /api/v1/usage's read for last month by each dimension and for the
// whole history by group (goal: under a second), and the CSV of last month by group as the route writes it, text
// included (goal: seconds). Raw reports play no part: the figures come from the daily roll-ups only.
//   node --conditions=react-server --import tsx scripts/bench/usage-by.ts [--workspaces N] [--roots N] [--days N]
import os from "node:os";
import { parseArgs } from "node:util";
import { Pool } from "pg";
import { openCsvStream } from "@/lib/csv/stream";
import { CONNECTION_OPTIONS, openPostgres } from "@/lib/db/open";
import { getUsageReport } from "@/lib/db/queries/usage-report";
import { FLEET } from "@/lib/db/scope";
import { usageByExport } from "@/lib/export/usage-by";
import { addDaysTo, median, utcDayOf } from "@/lib/series";
import { USAGE_DIMENSIONS, monthOf, type UsageDimension } from "@/lib/validations/usage";
import { createScratchPostgres } from "@/tests/support/db";
import { recordMeasure } from "../lib/bench-results";
import { generateFleet } from "../lib/scale-fleet";

const { values: args } = parseArgs({
  options: {
    workspaces: { type: "string", default: "10000" },
    roots: { type: "string", default: "4" },
    days: { type: "string", default: "365" },
    runs: { type: "string", default: "5" },
  },
});
const shape = {
  workspaces: Number(args.workspaces),
  roots: Number(args.roots),
  days: Number(args.days),
  rawDays: 0,
  rawPerDay: 0,
};
const runs = Number(args.runs);
const log = (s: string) => console.log(s);
const now = new Date();
const today = utcDayOf(now);
const lastMonth = monthOf(addDaysTo(`${monthOf(today)}-01`, -1));
const ORGS = 5;
const GROUPS = 100;

// The teams as a Coder sync stores them: organizations, each workspace's by its number, groups with members.
const TEAMS = [
  `insert into team_organizations (id, name, display_name, synced_at)
    select 'org-' || o, 'org-' || o, 'Organization ' || o, now() from generate_series(0, ${ORGS - 1}) o`,
  `update workspaces set organization_id = 'org-' || (substr(id, 4)::int % ${ORGS})`,
  `insert into team_groups (id, source, organization_id, name, display_name, synced_at)
    select 'grp-' || g, 'coder', 'org-' || (g % ${ORGS}), 'group-' || g, 'Group ' || g, now()
    from generate_series(0, ${GROUPS - 1}) g`,
  `insert into team_members (group_id, username)
    select 'grp-' || (j % ${GROUPS}), 'owner-' || j from generate_series(0, 499) j
    union all select 'grp-' || ((j * 7 + 1) % ${GROUPS}), 'owner-' || j from generate_series(0, 499) j where j % 3 = 0`,
  "analyze workspaces, team_organizations, team_groups, team_members",
];

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times)!;
}

/** The CSV of last month by group, header to total row, as the route streams it: its lines. */
async function csvLines(db: Parameters<typeof usageByExport>[0]): Promise<number> {
  const reader = (
    await openCsvStream(await usageByExport(db, FLEET, { dimension: "group", month: lastMonth }))
  ).getReader();
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return lines;
    for (const b of value) if (b === 10) lines++;
  }
}

const scratch = await createScratchPostgres();
const database = await openPostgres(scratch.url, 10);
const pool = new Pool({ connectionString: scratch.url, max: 4, options: CONNECTION_OPTIONS });
try {
  log(`${shape.workspaces} workspaces x ${shape.roots} roots, ${shape.days} days of roll-ups; last month ${lastMonth}`);
  const t = performance.now();
  await generateFleet(pool, shape);
  for (const q of TEAMS) await pool.query(q);
  log(`  generated in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const db = database.db;
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
  log(`load average (1, 5, 15 min) on ${os.cpus().length} cores before the timings: ${load()}`);
  let worst = 0;
  const page = async (
    label: string,
    dimension: UsageDimension,
    q: { month: string } | { from: string; to: string },
  ) => {
    const ms = await time(() => getUsageReport(db, FLEET, { dimension, ...q }, now));
    const rows = (await getUsageReport(db, FLEET, { dimension, ...q }, now)).rows.length;
    worst = Math.max(worst, ms);
    log(`${label.padEnd(40)} ${ms.toFixed(0).padStart(7)} ms  (${rows} rows)`);
  };
  log(`\nGET /api/v1/usage's read, median of ${runs}:`);
  for (const d of USAGE_DIMENSIONS) await page(`last month by ${d}`, d, { month: lastMonth });
  const from = addDaysTo(today, 1 - Math.min(shape.days, 365));
  await page(`${from} to ${today} by group`, "group", { from, to: addDaysTo(today, -1) });
  const csvMs = await time(() => csvLines(db));
  log(`${"CSV of last month by group".padEnd(40)} ${csvMs.toFixed(0).padStart(7)} ms  (${await csvLines(db)} lines)`);
  log(`load average after: ${load()}`);
  log(
    `worst read at ${shape.workspaces} workspaces: ${recordMeasure(`usage by team at ${shape.workspaces} workspaces, worst read (ms)`, worst, { op: "<=", target: 1000 })}`,
  );
  log(
    `CSV by group: ${recordMeasure(`usage-by.csv at ${shape.workspaces} workspaces (ms)`, csvMs, { op: "<=", target: 5000 })}`,
  );
} finally {
  await database.close();
  await pool.end();
  await scratch.drop();
}
