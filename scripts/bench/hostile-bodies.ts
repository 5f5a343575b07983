// Hostile bodies against the routes that take the largest ones (a job's result, a batch of reports), called in
// this process on real Postgres while a prober asks /api/v1/health every 20 ms: for each body, how long its
// request took, the slowest health answer meanwhile (goal under 100 ms: no request holds the event loop longer)
// and how far the process grew. The bodies are the review's: 32 KB of gzip that undoes to 32 MiB of `{}` units,
// sent to a made-up job and to a real one, alone and six at once; a list of 16 million zeros; and the worst valid
// result (100,000 units and 100,000 skipped, 44 MB).
//   node --conditions=react-server --import tsx scripts/bench/hostile-bodies.ts [--only 'worst valid']
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { GET as health } from "@/app/api/v1/health/route";
import { POST as result } from "@/app/api/v1/jobs/[id]/result/route";
import { POST as batch } from "@/app/api/v1/reports/batch/route";
import { claimJobs } from "@/lib/services/cleanup-jobs";
import { openPostgres } from "@/lib/db/open";
import { createRun } from "@/lib/services/cleanup-runs";
import { BASE, ctx } from "@/tests/support/auth";
import { claudeRoot, doneResult, seedWorkspace, usage } from "@/tests/support/cleanup";
import { createScratchPostgres, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { MiB } from "@/tests/support/reports";
import { recordMeasure } from "../lib/bench-results";

const { values: args } = parseArgs({ options: { only: { type: "string" } } });

const bomb = (key: string, item: string, bytes: number) =>
  gzipSync(`{"leaseToken":"x","${key}":[${`${item},`.repeat(Math.floor(bytes / (item.length + 1)))}${item}]}`);

/** The worst valid result: every list at its cap, with paths as long as real ones (see RESULT_BODY_BYTES). */
function fullResult(leaseToken: string) {
  const r = doneResult(leaseToken, 100_000 * MiB, 0);
  const trash = ".local/share/coder-storage/trash/0b6f0a4e-8c1d-4a43-9d4e-3a2f0f1b2c3d";
  const path = (i: number) =>
    `.local/share/claude/projects/-home-coder-src-p${i % 50}/s-${String(i).padStart(12, "0")}.jsonl`;
  r.units = Array.from({ length: 100_000 }, (_, i) => ({
    path: path(i),
    bytes: MiB + i,
    action: "trashed" as const,
    trashPath: `${trash}/${path(i)}`,
    newestMtime: "2026-11-29T05:13:43.123Z",
  }));
  r.skipped = Array.from({ length: 100_000 }, (_, i) => ({
    path: `.cache/pip/http/a/b/${i.toString(16).padStart(40, "0")}`,
    bytes: i,
    reason: "recent" as const,
  }));
  r.unitsActed = 100_000;
  return gzipSync(JSON.stringify(r));
}

const request = (path: string, token: string, body: Buffer, lease?: string) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-encoding": "gzip",
      ...(lease && { "x-lease-token": lease }),
    },
    body: new Uint8Array(body),
  });

/** Runs `send` while health is asked every 20 ms; the slowest health answer, the time taken and the growth. */
async function measure(name: string, send: () => Promise<Response[]>) {
  if (args.only && !name.includes(args.only)) return;
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let [slowest, peak, running] = [0, rss0, true];
  const prober = (async () => {
    while (running) {
      // from when the probe was due: a blocked event loop delays its start as much as its answer
      const due = performance.now() + 20;
      await new Promise((r) => setTimeout(r, 20));
      await health();
      slowest = Math.max(slowest, performance.now() - due);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  })();
  const t0 = performance.now();
  const statuses = (await send()).map((r) => r.status);
  const took = performance.now() - t0;
  running = false;
  await prober;
  const mb = (n: number) => Math.round(n / 1e6);
  console.log(
    `  ${name}: ${[...new Set(statuses)].join("/")} in ${Math.round(took)} ms; slowest health ${Math.round(slowest)} ms; RSS ${mb(rss0)} -> ${mb(peak)} MB`,
  );
  recordMeasure(`hostile bodies: slowest health, ${name} (ms)`, slowest, { op: "<=", target: 1000 });
}

const scratch = await createScratchPostgres({ migrated: true });
const database = await openPostgres(scratch.url, 4);
serveRoutesFrom(database);
try {
  const when = new Date(Date.now() + 5 * 60_000).toISOString();
  const ws = await seedWorkspace(database.db, { id: "ws-bench", owner: "jo" }, when, [
    claudeRoot(usage({ 60: [2, 20 * MiB] })),
  ]);
  const job = async () => {
    const run = {
      recipe: "claude-code-sessions" as const,
      params: { olderThanDays: 30 },
      scope: { workspaceIds: [ws.id] },
    };
    await createRun(
      database.db,
      { ...run, dryRun: false, trashDays: 7, minAgeHours: 24, countStatusChanges: false },
      TEST_WHO,
    );
    return (await claimJobs(database.db, ws.id))[0];
  };
  const units = bomb("units", "{}", 32 * MiB - 64); // under the old 32 MiB limit, as the review's was
  const zeros = bomb("errors", "0", 32 * MiB - 64);
  console.log(`bodies: ${units.length} bytes of gzip for 32 MiB of {} units; ${zeros.length} for 16 million zeros`);
  const made = "00000000-0000-4000-8000-000000000000";
  const post = (id: string, body: Buffer, lease?: string) =>
    result(request(`/api/v1/jobs/${id}/result`, ws.token, body, lease), ctx({ id }));
  await measure("{} units, made-up job", async () => [await post(made, units)]);
  await measure("{} units, made-up job, six at once", () =>
    Promise.all(Array.from({ length: 6 }, () => post(made, units))),
  );
  const held = await job();
  await measure("{} units, real job and lease", async () => [await post(held.id, units, held.leaseToken)]);
  await measure("16 M zeros, real job and lease", async () => [await post(held.id, zeros, held.leaseToken)]);
  const full = fullResult(held.leaseToken);
  await measure("worst valid result", async () => [await post(held.id, full, held.leaseToken)]);
  const reports = bomb("reports", "{}", 16 * MiB - 100);
  await measure("batch of 16 MiB of {} reports", async () => [
    await batch(request("/api/v1/reports/batch", ws.token, reports), ctx()),
  ]);
} finally {
  await database.close();
  await scratch.drop();
}
