// Ingest throughput over HTTP: 50-root reports from 16 concurrent clients into the built app, on the
// embedded database and on real Postgres, next to a plain COPY of the same rows into the same Postgres (target:
// HTTP ingest at 0.4x COPY's rows/s). Also the same ingest without HTTP (the storage path's own ceiling) and a
// trivial route's request rate on the same server (HTTP's ceiling: one report per request).
//   node --conditions=react-server --import tsx scripts/bench/ingest.ts [--reports N]
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { stringify } from "csv-stringify/sync";
import { subDays, subHours, subMinutes } from "date-fns";
import { openPostgres } from "@/lib/db/open";
import { createScratchPostgres } from "@/tests/support/db";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { ingestReport } from "@/lib/ingest/report";
import { REPORT_FORMAT_VERSION } from "@/lib/report-format/constants";
import type { Report, StorageRoot } from "@/lib/report-format/schema";
import { recordMeasure } from "../lib/bench-results";
import { ensureBuild, startNext } from "../lib/next-server";
import { keptDrained } from "./lib/kept-drained";
import { sampleKeptLag } from "./lib/kept-lag";

const { values: args } = parseArgs({
  options: {
    reports: { type: "string", default: "3000" },
    clients: { type: "string", default: "16" },
    only: { type: "string" },
  },
});
const TOTAL = Number(args.reports);
const CLIENTS = Number(args.clients);
const ROOTS = 50;
const WORKSPACES = 64;

function makeRoots(i: number): StorageRoot[] {
  const now = Date.now();
  return Array.from({ length: ROOTS }, (_, k) => ({
    key: `bench/module-${k}`,
    kind: "module",
    agent: ["claude-code", "codex", "gemini", "goose", "other"][k % 5],
    path: `.coder-modules/bench/module-${k}`,
    bytes: 4096 * (1000 + i + k),
    apparentBytes: 4000 * (1000 + i + k),
    files: 100 + k,
    dirs: 10,
    oldestMtime: subDays(now, 90).toISOString(),
    newestMtime: subMinutes(now, 1).toISOString(),
    categories: {
      sessions: { bytes: 1000 * k, files: k },
      logs: { bytes: 500, files: 2 },
      other: { bytes: 100, files: 1 },
    },
    ages: { "1d": { bytes: 100, files: 1 }, "30d": { bytes: 1000 * k, files: k }, older: { bytes: 500, files: 2 } },
    largest: [{ path: `sessions/${k}.jsonl`, bytes: 1000 * k, mtime: subHours(now, 1).toISOString(), type: "file" }],
  }));
}

function makeReport(ws: { id: string; name: string; owner: string }, i: number): Report {
  return {
    version: REPORT_FORMAT_VERSION,
    id: randomUUID(),
    collectedAt: new Date(Date.now() - (TOTAL - i) * 1000).toISOString(),
    workspace: ws,
    volume: { totalBytes: 100 * 2 ** 30, freeBytes: 40 * 2 ** 30 },
    reporter: { version: "bench", scanMs: 100 },
    roots: makeRoots(i),
  };
}

async function runIngest(label: string, env: Record<string, string>) {
  const server = await startNext({
    ...env,
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
  });
  try {
    const keyRes = await fetch(`${server.url}/api/v1/health`);
    if (!keyRes.ok) throw new Error(`health: ${keyRes.status}`);
    const key = env.STORAGE_ENROLLMENT_KEY;
    const fleet = await Promise.all(
      Array.from({ length: WORKSPACES }, async (_, i) => {
        const ws = { id: `bench-${i}`, name: `bench-${i}`, owner: `owner-${i % 8}` };
        const res = await fetch(`${server.url}/api/v1/enroll`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-enrollment-key": key },
          body: JSON.stringify({ workspace: ws }),
        });
        if (!res.ok) throw new Error(`enroll: ${res.status} ${await res.text()}`);
        return { ws, token: ((await res.json()) as { token: string }).token };
      }),
    );
    // Bodies are made (and gzipped, as the reporter sends them) before the clock starts.
    const bodies = Array.from({ length: TOTAL }, (_, i) => {
      const f = fleet[i % WORKSPACES];
      return { token: f.token, body: gzipSync(JSON.stringify(makeReport(f.ws, i))) };
    });
    const warm = bodies.splice(0, 64);
    const send = async (b: { token: string; body: Buffer }) => {
      const res = await fetch(`${server.url}/api/v1/reports`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip", authorization: `Bearer ${b.token}` },
        body: new Uint8Array(b.body),
      });
      if (!res.ok) throw new Error(`report: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (const b of warm) await send(b);
    let next = 0;
    const latencies: number[] = [];
    const lag = env.DATABASE_URL ? sampleKeptLag(env.DATABASE_URL) : null;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < bodies.length) {
          const b = bodies[next++];
          const t = performance.now();
          await send(b);
          latencies.push(performance.now() - t);
        }
      }),
    );
    // The kept aggregates are refreshed after the acknowledgements: their work counts (on Postgres, where the
    // bench can see the marks; the embedded database is the app's alone).
    if (env.DATABASE_URL) await keptDrained(env.DATABASE_URL);
    const seconds = (performance.now() - started) / 1000;
    const lagSeconds = (await lag?.stop()) ?? null;
    // The HTTP layer's own ceiling: a route that does nothing but answer (the health check's select 1).
    next = 0;
    const pings = 3000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next++ < pings) await (await fetch(`${server.url}/api/v1/health`)).arrayBuffer();
      }),
    );
    const pingsPerSec = pings / ((performance.now() - t0) / 1000);
    console.log(
      `trivial route (GET /api/v1/health), ${label}: ${pingsPerSec.toFixed(0)} req/s = ${(pingsPerSec * ROOTS).toFixed(0)} rows/s at one report per request`,
    );
    latencies.sort((a, b) => a - b);
    const reportsPerSec = bodies.length / seconds;
    const p = (q: number) => latencies[Math.floor(q * (latencies.length - 1))].toFixed(1);
    console.log(
      `ingest over HTTP, ${label}: ${bodies.length} reports x ${ROOTS} roots, ${CLIENTS} clients: ` +
        `${reportsPerSec.toFixed(0)} reports/s, ${(reportsPerSec * ROOTS).toFixed(0)} rows/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`,
    );
    return { rows: reportsPerSec * ROOTS, ceiling: pingsPerSec * ROOTS, lagSeconds };
  } finally {
    await server.stop();
  }
}

/** The same ingest without HTTP: the storage path's own ceiling (the ingest function, 16 callers, pool of 10). */
async function runDirect(url: string) {
  const database = await openPostgres(url, 10);
  try {
    const { key } = await getEnrollmentKey(database.db);
    const fleet = Array.from({ length: WORKSPACES }, (_, i) => ({
      id: `direct-${i}`,
      name: `direct-${i}`,
      owner: "o",
    }));
    for (const ws of fleet) await enrollWorkspace(database.db, ws, key, null);
    const reports = Array.from({ length: TOTAL }, (_, i) => makeReport(fleet[i % WORKSPACES], i));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < reports.length) {
          const r = reports[next++];
          await ingestReport(database.db, r.workspace.id, r);
        }
      }),
    );
    await keptRefresherFor(database.db).drain();
    const perSec = reports.length / ((performance.now() - started) / 1000);
    console.log(`ingest without HTTP, Postgres: ${perSec.toFixed(0)} reports/s, ${(perSec * ROOTS).toFixed(0)} rows/s`);
    return perSec * ROOTS;
  } finally {
    await database.close();
  }
}

/** Rows/s of psql's COPY of the same rows (as root_usage rows) into a table of the same shape. */
function copyRowsPerSecond(url: string): number {
  const rows = Array.from({ length: TOTAL - 64 }, (_, i) => {
    const id = randomUUID();
    const at = new Date().toISOString();
    return makeRoots(i).map((r) => [
      id,
      at,
      `bench-${i % WORKSPACES}`,
      r.key,
      r.kind,
      r.agent,
      r.path,
      r.bytes,
      r.apparentBytes,
      r.files,
      r.dirs,
      r.oldestMtime,
      r.newestMtime,
      false,
      0,
      JSON.stringify(r.categories),
      JSON.stringify(r.ages),
      JSON.stringify(r.largest),
      "[]",
      "{}",
    ]);
  }).flat();
  const file = path.join(os.tmpdir(), `copy-bench-${process.pid}.csv`);
  fs.writeFileSync(file, stringify(rows, { cast: { boolean: (b) => String(b) } }));
  const psql = (sql: string) => {
    const r = spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-qc", sql], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
  };
  psql("create table copy_bench (like root_usage including defaults)");
  const t = performance.now();
  psql(`\\copy copy_bench from '${file}' with (format csv)`);
  const seconds = (performance.now() - t) / 1000;
  fs.rmSync(file);
  const perSec = rows.length / seconds;
  console.log(`COPY into Postgres: ${rows.length} rows in ${seconds.toFixed(2)} s: ${perSec.toFixed(0)} rows/s`);
  return perSec;
}

ensureBuild();
const key = `sek_bench_${randomUUID()}`;
const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), "ingest-bench-"));
const scratch = await createScratchPostgres();
try {
  const none = { rows: NaN, ceiling: NaN, lagSeconds: null };
  const embedded =
    args.only === "postgres"
      ? none
      : await runIngest("embedded (PGlite)", { STORAGE_DATA_DIR: embeddedDir, STORAGE_ENROLLMENT_KEY: key });
  const postgres =
    args.only === "embedded"
      ? none
      : await runIngest("Postgres", { DATABASE_URL: scratch.url, STORAGE_ENROLLMENT_KEY: key });
  const direct = await runDirect(scratch.url);
  const copy = copyRowsPerSecond(scratch.url);
  const verdict = (r: number, target: number) =>
    `${r.toFixed(2)} (target >= ${target.toFixed(2)}: ${r >= target ? "met" : "NOT met"})`;
  console.log(`ratio HTTP ingest / COPY on Postgres: ${verdict(postgres.rows / copy, 0.4)}`);
  console.log(`ratio ingest without HTTP / COPY on Postgres: ${verdict(direct / copy, 0.4)}`);
  console.log(
    `ratio trivial route at one report per request / COPY: ${(postgres.ceiling / copy).toFixed(2)} (HTTP's ceiling on this machine)`,
  );
  console.log(
    `ratio HTTP ingest / trivial route, Postgres: ${recordMeasure("HTTP ingest / do-nothing route, PostgreSQL", postgres.rows / postgres.ceiling, { op: ">=", target: 0.5 })}`,
  );
  if (postgres.lagSeconds !== null)
    console.log(
      `figures behind ingest at full load, seconds (worst "figures as of" lag): ${recordMeasure("figures' lag behind ingest at full load, s", postgres.lagSeconds, { op: "<=", target: 10 })}`,
    );
  // With --only postgres the embedded run is skipped: no ratio to record (NaN would reach the table as null).
  if (args.only !== "postgres")
    console.log(
      `ratio embedded / Postgres over HTTP: ${recordMeasure("embedded / PostgreSQL over HTTP", embedded.rows / postgres.rows, { op: ">=", target: 0.5 })}`,
    );
} finally {
  fs.rmSync(embeddedDir, { recursive: true, force: true });
  await scratch.drop();
}
