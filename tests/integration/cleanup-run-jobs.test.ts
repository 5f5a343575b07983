// A large run's page, on both databases: its jobs come a page at a time by key in every order, filtered by the
// state they are shown in, counted by state in one aggregate; and reading it (page, API, exports) writes nothing.
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as jobRoute from "@/app/api/v1/cleanup/jobs/[id]/route";
import * as runRoute from "@/app/api/v1/cleanup/runs/[id]/route";
import * as runsRoute from "@/app/api/v1/cleanup/runs/route";
import * as runCsvRoute from "@/app/api/v1/export/cleanup/runs/[id]/route";
import * as runsCsvRoute from "@/app/api/v1/export/cleanup/runs.csv/route";
import { BASE, ctx, makePrincipals } from "@/tests/support/auth";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { listRunJobs, type JobRow } from "@/lib/db/queries/cleanup-run-jobs";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import { auditLog, cleanupJobs, cleanupRuns } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { RUN_JOB_SORTS, RUN_JOBS_PAGE, type RunJobSort } from "@/lib/validations/cleanup";

const JOBS = 2500;
const MINUTE = 60_000;

describeEachDatabase("a large cleanup run's page", (t) => {
  let runId: string;
  let auth: Record<string, string>;
  const now = new Date();

  beforeAll(async () => {
    const db = t.current.db;
    serveRoutesFrom(t.current);
    auth = { authorization: `Bearer ${(await makePrincipals(t.current, "run-jobs")).viewerToken}` };
    await db.execute(
      sql`insert into workspaces (id, name, owner) select 'rj-' || g, 'ws-' || g, 'o' || (g % 7) from generate_series(1, ${JOBS}) g`,
    );
    [{ id: runId }] = await db
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
        createdByType: "user",
        createdByLabel: "admin@example.com",
      })
      .returning({ id: cleanupRuns.id });
    // Ten kinds of job in turn; sizes and finish times repeat, so every order has ties for the id to break.
    const at = (ms: number) => sql`${new Date(now.getTime() + ms).toISOString()}::timestamptz`;
    await db.execute(sql`insert into cleanup_jobs (run_id, workspace_id, kind, state, preview_bytes, preview_units, expires_at, claimed_at,
        lease_expires_at, finished_at, bytes_acted, units_acted, skipped_units, error_count)
      select ${runId}, 'rj-' || g, 'cleanup', s.state, (g % 97) * 1000, g % 5,
        case when g % 10 = 8 then ${at(-MINUTE)} else ${at(7 * 1440 * MINUTE)} end,
        case when s.state in ('done', 'failed', 'running', 'interrupted') then ${at(-30 * MINUTE)} end,
        case when g % 10 = 6 then ${at(5 * MINUTE)} when g % 10 = 7 then ${at(-MINUTE)} end,
        case when s.state in ('done', 'failed') then ${at(-MINUTE)} - (g % 50) * interval '1 second' end,
        case when s.state = 'done' then (g % 13) * 500 end, case when s.state = 'done' then g % 3 end,
        case when s.state in ('done', 'failed') then 0 end, case when s.state = 'failed' then 1 when s.state = 'done' then 0 end
      from generate_series(1, ${JOBS}) g,
        lateral (select (array['done', 'done', 'done', 'done', 'failed', 'queued', 'running', 'running', 'queued', 'interrupted'])[g % 10 + 1] as state) s`);
  }, 60_000);

  const allPages = async (sort: RunJobSort, state?: JobRow["state"]) => {
    const jobs: JobRow[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listRunJobs(t.current.db, runId, { sort, state, cursor, limit: 100 }, now);
      expect(page.jobs.length).toBeLessThanOrEqual(100);
      jobs.push(...page.jobs);
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    return { jobs, pages };
  };

  // What each order promises, as a comparison of neighbours (the id breaks every tie).
  const inOrder: Record<RunJobSort, (a: JobRow, b: JobRow) => boolean> = {
    preview: (a, b) => a.previewBytes > b.previewBytes || (a.previewBytes === b.previewBytes && a.id > b.id),
    freed: (a, b) =>
      b.bytesActed === null
        ? a.bytesActed !== null || a.id > b.id
        : a.bytesActed !== null && (a.bytesActed > b.bytesActed || (a.bytesActed === b.bytesActed && a.id > b.id)),
    workspace: (a, b) =>
      a.owner < b.owner ||
      (a.owner === b.owner &&
        (a.workspaceName < b.workspaceName || (a.workspaceName === b.workspaceName && a.id < b.id))),
    finished: (a, b) =>
      b.finishedAt === null
        ? a.finishedAt !== null || a.id > b.id
        : a.finishedAt !== null && (a.finishedAt > b.finishedAt || (a.finishedAt === b.finishedAt && a.id > b.id)),
  };

  it.each(RUN_JOB_SORTS)("pages every job exactly once, in order, by %s", async (sort) => {
    const { jobs, pages } = await allPages(sort);
    expect(pages).toBe(JOBS / 100); // the last full page knows it is the last: no empty page after it
    expect(new Set(jobs.map((j) => j.id)).size).toBe(JOBS);
    const misplaced = jobs.slice(1).findIndex((j, i) => !inOrder[sort](jobs[i], j));
    expect(misplaced, `job ${misplaced + 1} of ${sort} is out of order`).toBe(-1);
  });

  it("filters by the state a job is shown in, and counts states in the run's one aggregate", async () => {
    const { run } = (await getRunDetail(t.current.db, runId, {}, now))!;
    // lapsed: running past its lease; expired: queued past its expiry, neither yet swept
    expect(run.progress.states).toMatchObject({
      done: 1000,
      failed: 250,
      queued: 250,
      running: 250,
      lapsed: 250,
      expired: 250,
      interrupted: 250,
      cancelled: 0,
    });
    expect(run.progress).toMatchObject({ jobs: JOBS, finished: 1500 });
    expect(run.status).toBe("running");
    // Every shown state in every order: each order has an index of its own, and a state is also found by its
    // stored states (an expired job may still be stored queued, a lapsed one running).
    for (const state of SHOWN_JOB_STATES) {
      const { jobs } = await allPages(RUN_JOB_SORTS[SHOWN_JOB_STATES.indexOf(state) % RUN_JOB_SORTS.length], state);
      expect(
        jobs.every((j) => j.state === state),
        state,
      ).toBe(true);
      expect(jobs).toHaveLength(run.progress.states[state]);
    }
  });

  it("opens with one page of jobs, however many the run has, and pages on through the API", async () => {
    const detail = (await getRunDetail(t.current.db, runId))!;
    expect(detail.jobs).toHaveLength(RUN_JOBS_PAGE);
    expect(detail.nextCursor).not.toBeNull();
    const get = (qs: string) =>
      runRoute.GET(new Request(`${BASE}/api/v1/cleanup/runs/${runId}?${qs}`, { headers: auth }), ctx({ id: runId }));
    const first = await (await get("sort=finished&state=done&limit=200")).json();
    expect(first.jobs).toHaveLength(200);
    const second = await (await get(`sort=finished&state=done&limit=200&cursor=${first.nextCursor}`)).json();
    expect(second.jobs).toHaveLength(200);
    expect(second.jobs.map((j: JobRow) => j.id)).not.toContain(first.jobs[199].id);
    expect(second.jobs[0].finishedAt <= first.jobs[199].finishedAt).toBe(true);
    // a cursor of another order, or made up, is refused as such, not a failed query
    expect((await get(`sort=preview&cursor=${first.nextCursor}`)).status).toBe(422);
    expect((await get(`cursor=${Buffer.from('["x","y"]').toString("base64url")}`)).status).toBe(422);
    expect((await get("limit=201")).status).toBe(422);
  });

  it("reads without writing: the page, its API, the runs list and both exports leave lapsed and expired jobs to the scheduler", async () => {
    const db = t.current.db;
    const stored = () =>
      db
        .select({ state: cleanupJobs.state, n: sql<number>`count(*)::int` })
        .from(cleanupJobs)
        .where(
          and(
            eq(cleanupJobs.runId, runId),
            inArray(cleanupJobs.state, ["running", "queued", "interrupted", "expired", "cancelled"]),
          ),
        )
        .groupBy(cleanupJobs.state)
        .orderBy(cleanupJobs.state);
    const audits = () =>
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(inArray(auditLog.action, ["cleanup.jobs_expired", "cleanup.job_interrupted"]));
    const [before, auditsBefore] = [await stored(), await audits()];
    expect(before).toEqual([
      { state: "interrupted", n: 250 },
      { state: "queued", n: 500 },
      { state: "running", n: 500 },
    ]);
    const request = (path: string) => new Request(`${BASE}${path}`, { headers: auth });
    expect((await runRoute.GET(request(`/api/v1/cleanup/runs/${runId}`), ctx({ id: runId }))).status).toBe(200);
    expect((await runsRoute.GET(request("/api/v1/cleanup/runs"), ctx())).status).toBe(200);
    const csv = await (
      await runCsvRoute.GET(request(`/api/v1/export/cleanup/runs/${runId}.csv`), ctx({ id: `${runId}.csv` }))
    ).text();
    expect(csv.split("\n").filter((l) => l.includes(",lapsed"))).toHaveLength(250);
    const runsCsv = await (await runsCsvRoute.GET(request("/api/v1/export/cleanup/runs.csv"), ctx())).text();
    expect(runsCsv.split("\n")[0]).toContain("jobs_lapsed");
    expect(await stored()).toEqual(before);
    expect(await audits()).toEqual(auditsBefore);
  });

  it("sends a job's result on its own request, only once someone opens the job", async () => {
    const [job] = (await listRunJobs(t.current.db, runId, { sort: "preview", state: "queued", limit: 1 }, now)).jobs;
    const res = await jobRoute.GET(
      new Request(`${BASE}/api/v1/cleanup/jobs/${job.id}`, { headers: auth }),
      ctx({ id: job.id }),
    );
    expect(await res.json()).toEqual({ result: null });
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(
      (
        await jobRoute.GET(
          new Request(`${BASE}/api/v1/cleanup/jobs/${unknown}`, { headers: auth }),
          ctx({ id: unknown }),
        )
      ).status,
    ).toBe(404);
  });
});
