// Cleanup rules that had two copies, each now one function: both former callers get the same runs and jobs
// and must agree. The run page and the runs CSV on a run's progress and status (progressFrom, runStatus); the
// run page's Restore button and the restore request (restoreRefusal); the states a page shows before the
// scheduler's sweep and the ones the sweep stores (the job-state sets).
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { cleanupJobs, cleanupRuns } from "@/lib/db/schema";
import { sweepJobs } from "@/lib/services/cleanup-jobs";
import { listRunJobs } from "@/lib/db/queries/cleanup-run-jobs";
import { queueRestore } from "@/lib/services/cleanup-runs";
import { getRun } from "@/lib/db/queries/cleanup-views";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { cleanupRunsExport, RUN_COLUMNS } from "@/lib/export/cleanup";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { restoreRefusal } from "@/lib/cleanup/restore";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type JobSpec = { state: string; units?: number; finishedAgo?: number; expiresIn?: number; leaseIn?: number };

/** A trash run (or a dry run, or a cancelled one) and its jobs, one workspace each. */
const RUNS: { name: string; dryRun?: boolean; cancelled?: boolean; jobs: JobSpec[] }[] = [
  {
    name: "mixed",
    jobs: [
      { state: "done", units: 2, finishedAgo: HOUR },
      { state: "done", units: 0, finishedAgo: HOUR },
      { state: "done", units: 3, finishedAgo: 10 * DAY },
      { state: "failed", finishedAgo: HOUR },
      { state: "queued" },
      { state: "queued", expiresIn: -HOUR },
      { state: "interrupted", expiresIn: -HOUR },
      { state: "running", leaseIn: 5 * 60_000 },
      { state: "running", leaseIn: -60_000 },
      { state: "interrupted" },
    ],
  },
  { name: "dry", dryRun: true, jobs: [{ state: "done", units: 4, finishedAgo: HOUR }] },
  {
    name: "cancelled",
    cancelled: true,
    jobs: [
      { state: "cancelled", finishedAgo: HOUR },
      { state: "running", leaseIn: 5 * 60_000 },
    ],
  },
  { name: "waiting", jobs: [{ state: "queued" }, { state: "queued" }] },
  {
    name: "finished",
    jobs: [
      { state: "done", units: 1, finishedAgo: HOUR },
      { state: "expired", finishedAgo: HOUR },
    ],
  },
];

describeEachDatabase("cleanup rules with one home", (t) => {
  const now = new Date();
  const at = (ms: number) => new Date(now.getTime() + ms);
  const runIds: string[] = [];

  beforeAll(async () => {
    const db = t.current.db;
    let w = 0;
    for (const r of RUNS) {
      const [{ id }] = await db
        .insert(cleanupRuns)
        .values({
          kind: "cleanup",
          recipe: "claude-code-sessions",
          params: { olderThanDays: 30 },
          scope: { all: true },
          action: "trash",
          trashDays: 7,
          minAgeHours: 24,
          expiresDays: 7,
          dryRun: r.dryRun ?? false,
          cancelledAt: r.cancelled ? now : null,
          createdByType: "user",
          createdByLabel: "admin",
        })
        .returning({ id: cleanupRuns.id });
      runIds.push(id);
      for (const j of r.jobs) {
        const ws = `sr-${w++}`;
        await db.execute(sql`insert into workspaces (id, name, owner) values (${ws}, ${ws}, 'o')`);
        const ran = j.state !== "queued";
        await db.insert(cleanupJobs).values({
          runId: id,
          workspaceId: ws,
          kind: "cleanup",
          state: j.state as never,
          expiresAt: at(j.expiresIn ?? 7 * DAY),
          claimedAt: ran ? at(-2 * HOUR) : null,
          leaseExpiresAt: j.leaseIn !== undefined ? at(j.leaseIn) : null,
          finishedAt: j.finishedAgo !== undefined ? at(-j.finishedAgo) : null,
          unitsActed: j.units ?? null,
          bytesActed: j.units ? j.units * 1000 : null,
        });
      }
    }
  });

  it("the run page and the runs CSV count each run's jobs and give its status alike", async () => {
    const csv = new Map<string, Record<string, unknown>>();
    // Pages of two runs: every run once, across the pages' keys.
    const { rows } = await cleanupRunsExport(t.current.db, { now, pageSize: 2 });
    for await (const row of rows) {
      expect(csv.has(row.id)).toBe(false);
      csv.set(row.id, Object.fromEntries(RUN_COLUMNS.map((c) => [c.header, c.value(row)])));
    }
    expect(csv.size).toBe(runIds.length);
    const statuses: string[] = [];
    for (const id of runIds) {
      const run = (await getRun(t.current.db, id, now))!;
      const row = csv.get(id)!;
      expect(row.status).toBe(run.status);
      expect(row.jobs).toBe(run.progress.jobs);
      for (const s of SHOWN_JOB_STATES) expect(row[`jobs_${s}`], s).toBe(run.progress.states[s]);
      statuses.push(run.status);
    }
    expect(statuses).toEqual(["running", "finished", "cancelled", "queued", "finished"]);
  });

  it("the run page offers Restore on exactly the jobs whose restore is accepted", async () => {
    const db = t.current.db;
    let offered = 0;
    for (const id of runIds) {
      const run = (await getRun(db, id, now))!;
      for (const job of (await listRunJobs(db, id, { sort: "preview", limit: 100 }, now)).jobs) {
        const offers = restoreRefusal(run, job, now) === null;
        offered += Number(offers);
        const accepted = await queueRestore(db, job.id, TEST_WHO).then(
          () => true,
          () => false,
        );
        expect(accepted, `${job.state} ${job.unitsActed} units`).toBe(offers);
      }
    }
    // The done jobs with units, of the mixed and the finished run: not the empty one, the one whose trash was
    // emptied, the dry run's.
    expect(offered).toBe(2);
  });

  it("a page shows, before the sweep, the states the sweep then stores (a lapsed lease aside: it goes back in the queue)", async () => {
    const db = t.current.db;
    const shown = async () => {
      const jobs = (
        await Promise.all(runIds.map((id) => listRunJobs(db, id, { sort: "preview", limit: 100 }, now)))
      ).flatMap((p) => p.jobs);
      return new Map(jobs.filter((j) => j.kind === "cleanup").map((j) => [j.id, j.state]));
    };
    const before = await shown();
    await sweepJobs(db, now);
    const stored = new Map(
      (
        await db
          .select({ id: cleanupJobs.id, state: cleanupJobs.state })
          .from(cleanupJobs)
          .where(eq(cleanupJobs.kind, "cleanup"))
      ).map((j) => [j.id, j.state]),
    );
    for (const [id, state] of before) expect(stored.get(id), state).toBe(state === "lapsed" ? "interrupted" : state);
    expect([...before.values()].filter((s) => s === "lapsed" || s === "expired").length).toBe(4);
  });
});
