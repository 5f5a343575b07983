// The usage export on real Postgres: loads daily history generated in SQL (workspaces x roots x days rows of
// root_daily) into a scratch database, streams GET /api/v1/export/usage.csv over all of it, and prints rows/s
// and the process's peak RSS, first with a tenth of the workspaces loaded, then with all of them: a peak that
// stays put while the rows grow tenfold is the streaming at work. Next to each, Postgres' own
// COPY (<the export's select>) TO STDOUT WITH CSV of the same rows, as the yardstick of how fast CSV can come
// out of this database at all (target: the export at least half its rows/s). Also prints EXPLAIN of a later page.
//   node --conditions=react-server --import tsx scripts/bench/export.ts [--workspaces 1000] [--roots 10] [--days 180]
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { subDays } from "date-fns";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { createApiToken } from "@/lib/services/api-tokens";
import { createUser } from "@/lib/services/users";
import { CONNECTION_OPTIONS, openPostgres } from "@/lib/db/open";
import { ensurePartitions } from "@/lib/db/partitions";
import { createScratchPostgres, serveRoutesFrom } from "@/tests/support/db";
import type { Db } from "@/lib/db/types";
import { dailyUsageRows, reportUsageRows, type UsageFilters } from "@/lib/db/queries/export-usage";
import { formatBytes } from "@/lib/format/bytes";
import { usageExport } from "@/lib/export/usage";
import { FLEET } from "@/lib/db/scope";
import { copyQueries, countLines, explain, pageSql } from "./lib/export-probes";

const { values: args } = parseArgs({
  options: {
    workspaces: { type: "string", default: "1000" },
    roots: { type: "string", default: "10" },
    days: { type: "string", default: "180" },
    child: { type: "string" },
  },
});
const ROOTS = Number(args.roots);
const DAYS = Number(args.days);
const day = (n: number) => subDays(new Date(), n).toISOString().slice(0, 10);
const QUERY = `range=custom&from=${day(DAYS - 1)}&to=${day(0)}`;

/** In a fresh process (so its peak RSS is this export's alone): streams the export and prints the figures. */
async function child(url: string) {
  const database = await openPostgres(url, 4);
  serveRoutesFrom(database);
  const { GET } = await import("@/app/api/v1/export/usage.csv/route");
  const before = process.memoryUsage().rss;
  // RSS and the heap in use also count garbage not collected yet (V8 lets more pile up the longer it
  // allocates); the live heap, measured after a forced collection, is what the export holds.
  const gc = (globalThis as { gc?: () => void }).gc!;
  let peakLive = 0;
  let chunks = 0;
  const cpu = process.cpuUsage();
  const t = performance.now();
  // As a viewer's API token, passed by the parent in the environment (exports need a signed-in caller).
  const headers = { authorization: `Bearer ${process.env.BENCH_TOKEN}` };
  const res = await GET(new Request(`http://localhost/api/v1/export/usage.csv?${QUERY}`, { headers }), {});
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - t;
    bytes += value.byteLength;
    lines += countLines(value);
    // At 50, 100, 200, 400, ... chunks (one every 50 slowed down the export it measured).
    const fifties = ++chunks / 50;
    if (Number.isInteger(fifties) && (fifties & (fifties - 1)) === 0) {
      gc();
      peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
    }
  }
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  await database.close();
  console.log(
    JSON.stringify({
      rows: lines - 1,
      bytes,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      firstByteMs,
      rssBefore: before,
      peakRss: process.resourceUsage().maxRSS * 1024,
      peakLive,
    }),
  );
}

async function load(db: Db, from: number, to: number) {
  const ws = sql`'ws-' || lpad(i::text, 6, '0')`;
  const agent = sql`(array['claude-code','codex','gemini','goose','opencode'])[1 + r % 5]`;
  await db.execute(sql`insert into workspaces (id, name, owner, template, total_bytes, root_count, last_collected_at)
    select ${ws}, 'workspace-' || i, 'owner-' || (i % 97), 'template-' || (i % 7), 0, ${ROOTS}, now()
    from generate_series(${from}::int, ${to}::int) i`);
  await db.execute(sql`insert into root_latest (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
      apparent_bytes, files, dirs)
    select gen_random_uuid(), now(), ${ws}, 'root-' || r, 'tool', ${agent}, '.root-' || r || '/data', 1, 1, 1, 1
    from generate_series(${from}::int, ${to}::int) i, generate_series(1, ${ROOTS}::int) r`);
  // 100 workspaces a statement: the connection's statement timeout cancelled one statement of the whole fleet
  for (let a = from; a <= to; a += 100) {
    const b = Math.min(to, a + 99);
    await db.execute(sql`insert into root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
      select ${ws}, 'root-' || r, current_date - d, ${agent}, 'tool', (i::bigint * 7919 + r * 104729 + d * 1299709) % 10000000000,
        (i::bigint * 7919 + r * 104729 + d * 1299709) % 10000000000 + 4096, (i * 31 + d) % 100000,
        (current_date - d) + time '23:30' at time zone 'UTC'
      from generate_series(${a}::int, ${b}::int) i, generate_series(1, ${ROOTS}::int) r, generate_series(0, ${DAYS - 1}::int) d`);
  }
  await db.execute(sql`analyze`);
}

/**
 * COPY of the daily export's own select (its first page's SQL with no page limit, so the same joins, columns and
 * order) to CSV, counted as it streams and thrown away: rows/s of Postgres writing the same rows itself.
 */
async function copyRate(url: string, filters: UsageFilters) {
  const seen: SQL[] = [];
  const stub = { execute: (q: SQL) => (seen.push(q), Promise.resolve({ rows: [] })) } as unknown as Db;
  await dailyUsageRows(stub, filters, { pageSize: 2 ** 31 - 1 }).next();
  const text = new PgDialect().sqlToQuery(seen[0].inlineParams()).sql;
  const client = new pg.Client({ connectionString: url, options: CONNECTION_OPTIONS });
  await client.connect();
  try {
    const t = performance.now();
    let rows = 0;
    let bytes = 0;
    for await (const chunk of client.query(copyTo(`copy (${text}) to stdout with csv`)) as AsyncIterable<Buffer>) {
      bytes += chunk.byteLength;
      rows += countLines(chunk);
    }
    return { rows, bytes, seconds: (performance.now() - t) / 1000 };
  } finally {
    await client.end();
  }
}

async function compare(url: string, label: string, filters: UsageFilters) {
  const m = measure(url, label);
  const c = await copyRate(url, filters);
  const exportRate = m.rows / m.seconds;
  const copyRows = c.rows / c.seconds;
  console.log(
    `${label}: COPY ... TO STDOUT WITH CSV of the same select: ${c.rows.toLocaleString("en")} rows (${formatBytes(c.bytes)}) in ` +
      `${c.seconds.toFixed(1)} s: ${Math.round(copyRows).toLocaleString("en")} rows/s`,
  );
  if (c.rows !== m.rows) throw new Error(`COPY wrote ${c.rows} rows, the export ${m.rows}`);
  return { ...m, ratio: exportRate / copyRows };
}

function measure(url: string, label: string) {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, "--expose-gc", import.meta.filename, "--child", url, "--days", String(DAYS)],
    {
      encoding: "utf8",
      env: { ...process.env, BENCH_TOKEN: token },
    },
  );
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as {
    rows: number;
    bytes: number;
    seconds: number;
    cpuSeconds: number;
    firstByteMs: number;
    rssBefore: number;
    peakRss: number;
    peakLive: number;
  };
  console.log(
    `${label}: ${m.rows.toLocaleString("en")} rows (${formatBytes(m.bytes)}) in ${m.seconds.toFixed(1)} s: ` +
      `${Math.round(m.rows / m.seconds).toLocaleString("en")} rows/s (Node's CPU ${((1e6 * m.cpuSeconds) / m.rows).toFixed(1)} µs a row), first byte after ${m.firstByteMs.toFixed(0)} ms, ` +
      `RSS ${formatBytes(m.rssBefore)} before, peak ${formatBytes(m.peakRss)}; live heap at most ${formatBytes(m.peakLive)}`,
  );
  return m;
}

let token = "";
if (args.child) {
  await child(args.child);
} else {
  const workspaces = Number(args.workspaces);
  const tenth = Math.max(1, Math.round(workspaces / 10));
  const scratch = await createScratchPostgres();
  const database = await openPostgres(scratch.url, 2);
  try {
    const db = database.db;
    const who = { actor: { type: "system" as const, label: "bench" } };
    const viewer = await createUser(db, { email: "bench-viewer@example.com", role: "viewer" }, who);
    token = (await createApiToken(db, viewer.id, { name: "bench", role: "viewer" }, who)).token;
    let t = performance.now();
    await load(db, 1, tenth);
    console.log(
      `loaded ${(tenth * ROOTS * DAYS).toLocaleString("en")} root_daily rows in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const filters = { scope: FLEET, from: day(DAYS - 1), to: day(0) };
    const small = await compare(scratch.url, "10% of the rows ", filters);
    console.log(`10% of the rows : export/COPY rows/s ratio: ${small.ratio.toFixed(2)}`);
    t = performance.now();
    await load(db, tenth + 1, workspaces);
    console.log(
      `loaded ${(workspaces * ROOTS * DAYS).toLocaleString("en")} root_daily rows in all (${((performance.now() - t) / 1000).toFixed(1)} s more)`,
    );
    const large = await compare(scratch.url, "100% of the rows", filters);
    console.log(
      `ratio 100% / 10%: rows ${(large.rows / small.rows).toFixed(1)}x, peak RSS ${(large.peakRss / small.peakRss).toFixed(2)}x, ` +
        `live heap ${(large.peakLive / small.peakLive).toFixed(2)}x, rows/s ${(large.rows / large.seconds / (small.rows / small.seconds)).toFixed(2)}x ` +
        `(memory ratios near 1: the memory of an export does not follow its size)`,
    );
    const target = (ok: boolean) => (ok ? "met" : "MISSED");
    console.log(
      `ratio CSV export / COPY = ${large.ratio.toFixed(2)} (rows/s over HTTP, route included; target ≥ 0.5: ${target(large.ratio >= 0.5)})`,
    );
    const rss = large.peakRss / small.peakRss;
    console.log(`peak memory 10x/1x: ${rss.toFixed(2)} (peak RSS; target ≤ 1.2: ${target(rss <= 1.2)})`);

    await explain(
      db,
      "daily page 50 (root_daily by its primary key)",
      await pageSql(db, (spy) => dailyUsageRows(spy, filters), 50),
    );
    await explain(
      db,
      "daily page 2, one workspace",
      await pageSql(db, (spy) => dailyUsageRows(spy, { ...filters, workspaces: ["ws-000500"] }, { pageSize: 500 }), 2),
    );
    // Raw history for the report granularity, in its day partitions as maintenance keeps them: every workspace,
    // one report every 3 hours over the 14 days of the default retention.
    const rawDays = Array.from({ length: 15 }, (_, i) => day(14 - i));
    await ensurePartitions(db, rawDays, rawDays[0]);
    await db.execute(sql`insert into reports (id, workspace_id, collected_at, reporter_version, scan_ms, total_bytes, root_count)
      select gen_random_uuid(), 'ws-' || lpad(i::text, 6, '0'), now() - make_interval(hours => h * 3), 'bench', 1, 0, ${ROOTS}
      from generate_series(1, ${workspaces}::int) i, generate_series(0, 14 * 8 - 1) h`);
    await db.execute(sql`insert into root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes, apparent_bytes, files, dirs)
      select p.id, p.collected_at, p.workspace_id, 'root-' || r, 'tool', 'codex', '.root-' || r, r * 1000, r * 1000, 1, 1
      from reports p, generate_series(1, ${ROOTS}::int) r`);
    await db.execute(sql`analyze`);
    const recent = { scope: FLEET, from: day(13), to: day(0) };
    // The join as it was: root_usage found by the report id alone, without the partition key or the key's leading
    // columns (kept here to show what the whole key saves).
    const lateral =
      /cross join lateral \(select \* from root_usage u\s+where (u\.collected_at = r\.collected_at and u\.workspace_id = r\.workspace_id and u\.report_id = r\.id)\s+order by u\.root_key\) u/;
    const joined = (text: string, on: string) => {
      if (!lateral.test(text)) throw new Error("the report export no longer looks up root_usage by its whole key");
      return text.replace(lateral, (_, key: string) => `join root_usage u on ${on || key}`);
    };
    const idOnly = (text: string) => joined(text, "u.report_id = r.id");
    // On PostgreSQL the export is COPY, a batch of workspaces at a time: the plan of its second batch.
    const copies = await copyQueries(
      usageExport(database.db, FLEET, { range: "custom", ...recent, granularity: "report" }, { batchRows: 50_000 }),
      2,
    );
    const batch = copies[1].replace(/^copy \(/, "").replace(/\) to stdout with csv$/, "");
    await explain(
      db,
      "report export's second COPY batch (root_usage looked up by its whole key per report)",
      sql.raw(batch),
    );
    await explain(db, "the same as a plain join on the whole key", sql.raw(joined(batch, "")));
    await explain(db, "the same as a plain join on the report id alone", sql.raw(idOnly(batch)));
    // The embedded database's way, a keyset page at a time (here on PostgreSQL, for the plan).
    const reportPage = await pageSql(db, (spy) => reportUsageRows(spy, recent), 20);
    await explain(db, "report page 20 (the row reader's keyset page, whole key)", reportPage);
    const text = new PgDialect().sqlToQuery(reportPage.inlineParams()).sql;
    await explain(db, "report page 20 joined on the report id alone", sql.raw(idOnly(text)));
  } finally {
    await database.close();
    await scratch.drop();
  }
}
