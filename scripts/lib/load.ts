// A fleet of simulated workspaces against a running dashboard, for the load benchmark and the fault tests. Each
// workspace is the reporter's own delivery code (lib/reporter/send/delivery.ts: enrollment with its own token, the
// spool on disk, batches, retries honouring Retry-After) in a folder of its own, sending small reports in a loop
// and claiming and completing the cleanup jobs it finds. Every report id the dashboard acknowledged is counted,
// so that afterwards the database can be checked to hold exactly those, none twice.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createRun } from "@/lib/services/cleanup-runs";
import { rowsOf, type Db } from "@/lib/db/types";
import { REPORT_FORMAT_VERSION } from "@/lib/report-format/constants";
import type { Report } from "@/lib/report-format/schema";
import { deliverAll } from "@/lib/reporter/send/delivery";
import { EXIT } from "@/lib/reporter/exit-codes";
import { DEFAULT_RETRY, gzip, request, type RetryPolicy } from "@/lib/reporter/send/http";
import { Spool, readToken, writeToken } from "@/lib/reporter/state";

export type LoadOptions = {
  /** The dashboard. */
  url: string;
  enrollmentKey: string;
  workspaces: number;
  /** Workspace ids are `${prefix}-${i}`: runs on one database are told apart by it. */
  prefix: string;
  durationMs: number;
  /** Mean pause between two reports of one workspace (each pause is 0.5–1.5 times it). */
  thinkMs: number;
  /** Each workspace's reporter folder (token, spool) goes under it. */
  stateRoot: string;
  /** Creates cleanup jobs for (some of) these workspaces, every `jobEveryMs`; returns how many. */
  createJobs?: (workspaceIds: string[]) => Promise<number>;
  jobEveryMs?: number;
  /** After the load, how long the workspaces may take to empty their spools. */
  drainMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Called once every workspace is enrolled, as the clock starts: a fault injected earlier would fail enrolling. */
  onStart?: () => void;
};

export type LoadResult = {
  seconds: number;
  /** Every report made, and those the dashboard acknowledged (stored now or before). */
  generated: number;
  acknowledged: Set<string>;
  /** Milliseconds of each delivery that ended stored (one request, or a backlog's batches). */
  latencies: number[];
  exits: Record<string, number>;
  /** Reports still spooled after the drain (0 when everything got through). */
  leftInSpools: number;
  jobs: { created: number; completed: number; createFailures: number };
  /** Lines the reporters logged, counted by what they say. */
  said: Record<string, number>;
};

const SAYINGS: [string, RegExp][] = [
  ["spooled", /spooled \(/],
  ["unreachable", /cannot reach the dashboard|not accepting reports now/],
  ["batches retried", /could not store every report now/],
  ["disk full", /disk full/],
  ["unreadable spool file", /is unreadable/],
];

function makeReport(ws: { id: string; name: string; owner: string }, n: number): Report {
  const now = new Date();
  const kib = 4096 * (100 + n);
  return {
    version: REPORT_FORMAT_VERSION,
    id: randomUUID(),
    collectedAt: now.toISOString(),
    workspace: ws,
    volume: { totalBytes: 100 * 2 ** 30, freeBytes: 40 * 2 ** 30 },
    reporter: { version: "load", scanMs: 50 },
    roots: ["claude-code:data", "codex:data", "coder/claude-code"].map((key, k) => ({
      key,
      kind: key.includes(":") ? ("tool" as const) : ("module" as const),
      agent: key.startsWith("codex") ? "codex" : "claude-code",
      path: [".claude", ".codex", ".coder-modules/coder/claude-code"][k],
      bytes: kib * (k + 1),
      apparentBytes: kib * (k + 1),
      files: 10 + n,
      dirs: 3,
      oldestMtime: new Date(now.getTime() - 30 * 86_400_000).toISOString(),
      newestMtime: now.toISOString(),
    })),
  };
}

const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;

export function latencySummary(latencies: number[]) {
  const s = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(s, 0.5), p95: percentile(s, 0.95), p99: percentile(s, 0.99) };
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const retry: RetryPolicy = { ...DEFAULT_RETRY, attempts: 3, baseMs: 200, capMs: 2000, ...o.retry };
  const acknowledged = new Set<string>();
  const latencies: number[] = [];
  const exits: Record<string, number> = {};
  const said: Record<string, number> = {};
  const jobs = { created: 0, completed: 0, createFailures: 0 };
  let generated = 0;
  const log = (s: string) => {
    for (const [name, re] of SAYINGS) if (re.test(s)) said[name] = (said[name] ?? 0) + 1;
  };
  const fleet = Array.from({ length: o.workspaces }, (_, i) => {
    const identity = { id: `${o.prefix}-${i}`, name: `${o.prefix}-${i}`, owner: `owner-${i % 50}` };
    const state = path.join(o.stateRoot, identity.id);
    fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    return { identity, state, reported: false, n: 0 };
  });
  type Member = (typeof fleet)[number];

  const deliver = async (w: Member) => {
    const report = makeReport(w.identity, w.n++);
    generated++;
    const t = performance.now();
    const code = await deliverAll({
      server: o.url,
      state: w.state,
      token: readToken(w.state),
      identity: w.identity,
      enrollmentKey: o.enrollmentKey,
      report,
      body: gzip(JSON.stringify(report)),
      log,
      verbose: () => {},
      retry,
      splayMs: 0,
      acknowledged: (id) => acknowledged.add(id),
    });
    exits[code] = (exits[code] ?? 0) + 1;
    if (code === EXIT.OK) {
      latencies.push(performance.now() - t);
      w.reported = true;
    }
    return code;
  };

  // The reporter's side of cleanup: claim this workspace's jobs and send each a (dry run's) result.
  const doJobs = async (w: Member) => {
    const token = readToken(w.state);
    if (!token) return;
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    try {
      const claim = await request(`${o.url}/api/v1/jobs/claim`, { method: "POST", headers, body: Buffer.from("{}") });
      const claimed = (claim.body as { jobs?: { id: string; leaseToken: string }[] } | null)?.jobs ?? [];
      for (const job of claimed) {
        const at = new Date().toISOString();
        const result = { leaseToken: job.leaseToken, status: "done", unitsActed: 0, bytesActed: 0, units: [] };
        const body = { ...result, skipped: [], errors: [], logTail: [], startedAt: at, finishedAt: at };
        const r = await request(`${o.url}/api/v1/jobs/${job.id}/result`, {
          method: "POST",
          headers,
          body: Buffer.from(JSON.stringify(body)),
        });
        if (r.status === 200) jobs.completed++;
      }
    } catch {
      // unreachable now: the job's lease runs out and it is handed out again
    }
  };

  // A fleet enrolls once, over days; here 16 at a time before the clock starts, so that the load is reporting.
  let nextToEnroll = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (nextToEnroll < fleet.length) {
        const w = fleet[nextToEnroll++];
        if (readToken(w.state)) continue;
        const r = await request(`${o.url}/api/v1/enroll`, {
          method: "POST",
          headers: { "X-Enrollment-Key": o.enrollmentKey, "Content-Type": "application/json" },
          body: Buffer.from(JSON.stringify({ workspace: w.identity })),
        });
        const token = (r.body as { token?: string } | null)?.token;
        if (r.status !== 200 || !token) throw new Error(`enrolling ${w.identity.id}: HTTP ${r.status}`);
        writeToken(w.state, token);
      }
    }),
  );

  o.onStart?.();
  const started = performance.now();
  const deadline = Date.now() + o.durationMs;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let jobTimer: NodeJS.Timeout | undefined;
  if (o.createJobs) {
    const create = o.createJobs;
    jobTimer = setInterval(() => {
      const ready = fleet.filter((w) => w.reported).map((w) => w.identity.id);
      if (ready.length === 0) return;
      const some = ready.sort(() => Math.random() - 0.5).slice(0, Math.max(1, Math.ceil(ready.length / 20)));
      create(some).then(
        (n) => void (jobs.created += n),
        () => void jobs.createFailures++,
      );
    }, o.jobEveryMs ?? 3000);
  }
  await Promise.all(
    fleet.map(async (w) => {
      await pause(Math.random() * o.thinkMs); // the fleet's cron splay
      while (Date.now() < deadline) {
        if ((await deliver(w)) === EXIT.OK) await doJobs(w);
        await pause(o.thinkMs * (0.5 + Math.random()));
      }
    }),
  );
  clearInterval(jobTimer);
  const seconds = (performance.now() - started) / 1000;

  // Drain: every workspace whose spool still holds reports runs again until it is empty (as its next cron runs would).
  const drainUntil = Date.now() + (o.drainMs ?? 60_000);
  const spooled = (w: Member) => new Spool(w.state).list().length;
  await Promise.all(
    fleet.map(async (w) => {
      while (spooled(w) > 0 && Date.now() < drainUntil) {
        if ((await deliver(w)) !== EXIT.OK) await pause(1000);
      }
    }),
  );
  const leftInSpools = fleet.reduce((s, w) => s + spooled(w), 0);
  return { seconds, generated, acknowledged, latencies, exits, leftInSpools, jobs, said };
}

export type ExactlyOnce = {
  stored: number;
  acknowledged: number;
  missing: number;
  unacknowledged: number;
  doubled: number;
};

/** Compares the reports stored for the run's workspaces with those acknowledged: none missing, none extra, none twice. */
export async function checkExactlyOnce(db: Db, prefix: string, acknowledged: Set<string>): Promise<ExactlyOnce> {
  const rows = rowsOf<{ id: string; n: number }>(
    await db.execute(
      sql`select id::text as id, count(*)::int as n from reports where workspace_id like ${`${prefix}-%`} group by id`,
    ),
  );
  const stored = new Set(rows.map((r) => r.id));
  return {
    stored: rows.length,
    acknowledged: acknowledged.size,
    missing: [...acknowledged].filter((id) => !stored.has(id)).length,
    unacknowledged: rows.filter((r) => !acknowledged.has(r.id)).length,
    doubled: rows.filter((r) => r.n > 1).length,
  };
}

/**
 * Cleanup runs as an admin starts them: a dry run of a custom target in a root every simulated report has, so
 * each workspace in scope gets a job.
 */
export function cleanupJobCreator(db: Db) {
  return async (workspaceIds: string[]) => {
    const run = await createRun(
      db,
      {
        custom: { rootKey: "claude-code:data", glob: "debug/*", unit: "file" },
        params: { olderThanDays: 1 },
        scope: { workspaceIds },
        dryRun: true,
        trashDays: 7,
        minAgeHours: 24,
        countStatusChanges: false,
      },
      { actor: { type: "system", label: "load test" } },
    );
    return run.jobs;
  };
}

/** Cleanup jobs of the run's workspaces by state. */
export async function jobStates(db: Db, prefix: string): Promise<Record<string, number>> {
  const rows = rowsOf<{ state: string; n: number }>(
    await db.execute(
      sql`select state, count(*)::int as n from cleanup_jobs where workspace_id like ${`${prefix}-%`} group by state`,
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

export function printLoad(label: string, workspaces: number, r: LoadResult, check: ExactlyOnce) {
  const l = latencySummary(r.latencies);
  console.log(
    `${label}: ${workspaces} workspaces for ${r.seconds.toFixed(0)} s: ${(r.acknowledged.size / r.seconds).toFixed(0)} reports/s acknowledged, ` +
      `delivery p50 ${l.p50.toFixed(0)} ms, p95 ${l.p95.toFixed(0)} ms, p99 ${l.p99.toFixed(0)} ms`,
  );
  console.log(
    `  reports made ${r.generated}, acknowledged ${check.acknowledged}, stored ${check.stored}, missing ${check.missing}, ` +
      `stored but not acknowledged ${check.unacknowledged}, stored twice ${check.doubled}, left in spools ${r.leftInSpools}`,
  );
  console.log(
    `  cleanup jobs created ${r.jobs.created}, completed ${r.jobs.completed}; reporter exits ${JSON.stringify(r.exits)}; said ${JSON.stringify(r.said)}`,
  );
}
