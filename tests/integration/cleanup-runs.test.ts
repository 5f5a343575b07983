// Cleanup on the server, on both databases: preview, run fan-out and confirmation, the reporter's claim,
// progress and result under leases, expiry, cancel, restore, trash purge, and the audit trail of each step.
import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as claimRoute from "@/app/api/v1/jobs/claim/route";
import * as resultRoute from "@/app/api/v1/jobs/[id]/result/route";
import * as previewRoute from "@/app/api/v1/cleanup/preview/route";
import * as runsRoute from "@/app/api/v1/cleanup/runs/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
import { auditLog, cleanupJobResults, cleanupJobs } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { MiB } from "@/tests/support/reports";
import { claudeRoot, doneResult, seedWorkspace, usage, type Enrolled, FLEET_CLAUDE_RUN } from "@/tests/support/cleanup";
import { claimJobs, reportProgress, storeJobResult, sweepJobs } from "@/lib/services/cleanup-jobs";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { cancelRun, createRun, queueRestore, queueTrashPurge } from "@/lib/services/cleanup-runs";
import type { Who } from "@/lib/db/queries/audit";
import { getJobDetail } from "@/lib/db/queries/cleanup-run-jobs";
import { getRunDetail, listRuns } from "@/lib/db/queries/cleanup-views";

const RUN = { ...FLEET_CLAUDE_RUN };
const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };
const LATER = (ms: number) => new Date(Date.now() + ms);

describeEachDatabase("cleanup runs and jobs", (t) => {
  const ws: Record<string, Enrolled> = {};
  let p: Principals;

  beforeAll(async () => {
    const db = t.current.db;
    serveRoutesFrom(t.current);
    // A few minutes ahead of the clock (within the accepted skew): the preview ages units by the time since
    // their report, and the figures below are exact only while that is zero.
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    ws.a = await seedWorkspace(db, { id: "cl-a", owner: "alice", template: "ai-dev" }, when, [
      claudeRoot(usage({ 1: [3, 30 * MiB], 30: [10, 100 * MiB], 60: [5, 200 * MiB] }, 1, 5 * MiB)),
    ]);
    ws.b = await seedWorkspace(db, { id: "cl-b", owner: "bob", template: "minimal" }, when, [
      claudeRoot(usage({ 90: [4, 400 * MiB] })),
    ]);
    ws.c = await seedWorkspace(db, { id: "cl-c", owner: "carol" }, when, [claudeRoot(null)]); // a reporter before 0.3
    ws.d = await seedWorkspace(db, { id: "cl-d", owner: "dave" }, when, [
      { key: "codex:data", agent: "codex", bytes: 900 * MiB },
    ]);
    ws.e = await seedWorkspace(db, { id: "cl-e", owner: "erin" }, when, [claudeRoot(usage({ 1: [2, 20 * MiB] }))]);
    p = await makePrincipals(t.current, "cleanup");
  });

  it("previews per workspace and in total from the latest reports, naming workspaces without usage", async () => {
    const preview = await previewRun(t.current.db, RUN);
    expect(preview.workspaces.map((w) => [w.workspaceId, w.bytes, w.units])).toEqual([
      ["cl-b", 400 * MiB, 4],
      ["cl-a", 200 * MiB, 5],
    ]);
    expect(preview.total).toMatchObject({
      workspaces: 2,
      bytes: 600 * MiB,
      units: 9,
      protectedUnits: 1,
      protectedBytes: 5 * MiB,
      estimate: false,
    });
    expect(preview.withoutUsage).toEqual({
      count: 1,
      workspaces: [{ workspaceId: "cl-c", name: "cl-c", owner: "carol" }],
    });
    expect(preview.zeroWorkspaces).toBe(1);
    const alice = await previewRun(t.current.db, {
      ...RUN,
      params: { olderThanDays: 25 },
      scope: { owners: ["alice"] },
    });
    expect(alice.workspaces.map((w) => w.workspaceId)).toEqual(["cl-a"]);
    expect(alice.total.estimate).toBe(true);
  });

  it("previews through the API for admins, not audited (a preview changes nothing)", async () => {
    const res = await previewRoute.POST(
      new Request(`${BASE}/api/v1/cleanup/preview`, {
        method: "POST",
        headers: { cookie: p.admin.cookie, "content-type": "application/json" },
        body: JSON.stringify(RUN),
      }),
      ctx(),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).total.bytes).toBe(600 * MiB);
    expect(await t.current.db.select().from(auditLog).where(eq(auditLog.action, "cleanup.previewed"))).toEqual([]);
  });

  it("refuses a run whose preview moved by more than 10 %, telling the current figure", async () => {
    const res = await runsRoute.POST(
      new Request(`${BASE}/api/v1/cleanup/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${p.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ ...RUN, confirmBytes: 400 * MiB }),
      }),
      ctx(),
    );
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.details.previewBytes).toBe(600 * MiB);
    expect(body.error.message).toContain("600 MiB");
  });

  it("fans a run out to exactly the workspaces in scope with something to free", async () => {
    const run = await createRun(t.current.db, { ...RUN, confirmBytes: 580 * MiB }, ADMIN);
    const detail = (await getRunDetail(t.current.db, run.id))!;
    expect(detail.jobs.map((j) => [j.workspaceId, j.state, j.previewBytes, j.rootKeys])).toEqual([
      ["cl-b", "queued", 400 * MiB, ["claude-code:data"]],
      ["cl-a", "queued", 200 * MiB, ["claude-code:data"]],
    ]);
    expect(detail.run).toMatchObject({
      status: "queued",
      previewBytes: 600 * MiB,
      workspacesWithoutUsage: 1,
      action: "trash",
      createdBy: "admin@example.com",
    });
    expect(detail.run.progress.states.queued).toBe(2);
    const owners = await createRun(t.current.db, { ...RUN, scope: { owners: ["bob", "carol", "dave"] } }, ADMIN);
    expect(owners.jobs).toBe(1);
    await cancelRun(t.current.db, owners.id, ADMIN);
    await cancelRun(t.current.db, run.id, ADMIN);
  });

  it("claims, extends and finishes a job under its lease; a stale or foreign token changes nothing", async () => {
    const db = t.current.db;
    const run = await createRun(db, { ...RUN, scope: { workspaceIds: ["cl-a"] } }, ADMIN);
    // The reporter claims over HTTP with its workspace token.
    const res = await claimRoute.POST(
      new Request(`${BASE}/api/v1/jobs/claim`, { method: "POST", headers: { authorization: `Bearer ${ws.a.token}` } }),
      ctx(),
    );
    expect(res.status).toBe(200);
    const { jobs } = await res.json();
    expect(jobs).toHaveLength(1);
    const job = jobs[0];
    expect(job).toMatchObject({
      kind: "cleanup",
      recipe: "claude-code-sessions",
      params: { olderThanDays: 30 },
      action: "trash",
      trashDays: 7,
      minAgeHours: 24,
      sourceJobId: null,
    });
    expect(job.limits.maxBytes).toBeGreaterThanOrEqual(200 * MiB);
    expect(await claimJobs(db, "cl-a")).toEqual([]); // held: not handed out twice
    expect((await reportProgress(db, "cl-a", job.id, job.leaseToken)).cancelled).toBe(false);
    await expect(reportProgress(db, "cl-a", job.id, "slt_wrong")).rejects.toMatchObject({ status: 409 });

    const post = (token: string, id: string, body: unknown) =>
      resultRoute.POST(
        new Request(`${BASE}/api/v1/jobs/${id}/result`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        ctx({ id }),
      );
    expect((await post(ws.a.token, job.id, doneResult("slt_stale", 190 * MiB, 5))).status).toBe(409);
    expect(await db.select().from(cleanupJobResults).where(eq(cleanupJobResults.jobId, job.id))).toEqual([]);
    expect((await post(ws.b.token, job.id, doneResult(job.leaseToken, 190 * MiB, 5))).status).toBe(403);
    expect((await post(ws.a.token, randomUUID(), doneResult(job.leaseToken, 1))).status).toBe(404);
    const ok = await post(ws.a.token, job.id, doneResult(job.leaseToken, 190 * MiB, 5));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ jobId: job.id, state: "done", stored: true });
    // A resend (the answer was lost) is answered the same, and stores nothing more.
    expect(await (await post(ws.a.token, job.id, doneResult(job.leaseToken, 190 * MiB, 5))).json()).toEqual({
      jobId: job.id,
      state: "done",
      stored: false,
    });
    const detail = (await getRunDetail(db, run.id))!;
    expect(detail.run).toMatchObject({ status: "finished", progress: { bytesFreed: 190 * MiB, finished: 1 } });
    expect((await getJobDetail(db, job.id))!.result).toMatchObject({
      status: "done",
      unitsActed: 5,
      skipped: [{ reason: "recent" }],
      logTail: ["cleanup: done"],
    });
  });

  it("interrupts a job whose lease ran out, hands it out again with a new token and refuses the old one", async () => {
    const db = t.current.db;
    await createRun(db, { ...RUN, scope: { workspaceIds: ["cl-b"] } }, ADMIN);
    const [first] = await claimJobs(db, "cl-b");
    expect(await sweepJobs(db, LATER(11 * 60_000))).toMatchObject({ interrupted: 1 });
    const [row] = await db.select().from(cleanupJobs).where(eq(cleanupJobs.id, first.id));
    expect(row).toMatchObject({ state: "interrupted", interruptions: 1 });
    const [second] = await claimJobs(db, "cl-b", LATER(12 * 60_000));
    expect(second.id).toBe(first.id);
    expect(second.leaseToken).not.toBe(first.leaseToken);
    await expect(reportProgress(db, "cl-b", first.id, first.leaseToken, LATER(12 * 60_000))).rejects.toMatchObject({
      status: 409,
    });
    await expect(storeJobResult(db, "cl-b", first.id, doneResult(first.leaseToken, 1))).rejects.toMatchObject({
      status: 409,
    });
    await storeJobResult(db, "cl-b", first.id, doneResult(second.leaseToken, 400 * MiB, 4));
    const [done] = await db.select().from(cleanupJobs).where(eq(cleanupJobs.id, first.id));
    expect(done).toMatchObject({ state: "done", attempts: 2, bytesActed: 400 * MiB });
  });

  it("expires a job never claimed, and cancels: waiting jobs end, running ones are told to stop", async () => {
    const db = t.current.db;
    const run = await createRun(db, { ...RUN, expiresDays: 3 }, ADMIN);
    const [held] = await claimJobs(db, "cl-a");
    const cancelled = await cancelRun(db, run.id, ADMIN);
    expect(cancelled).toEqual({ cancelled: 1, stopping: 1 });
    expect(await reportProgress(db, "cl-a", held.id, held.leaseToken)).toMatchObject({ cancelled: true });
    expect((await getRunDetail(db, run.id))!.run.status).toBe("cancelled");

    const waiting = await createRun(db, { ...RUN, scope: { workspaceIds: ["cl-b"] }, expiresDays: 3 }, ADMIN);
    expect((await sweepJobs(db, LATER(2 * 86_400_000))).expired).toBe(0);
    expect((await sweepJobs(db, LATER(4 * 86_400_000))).expired).toBe(1);
    expect((await getRunDetail(db, waiting.id))!.jobs[0].state).toBe("expired");
    expect(await claimJobs(db, "cl-b", LATER(4 * 86_400_000))).toEqual([]);
    await storeJobResult(db, "cl-a", held.id, doneResult(held.leaseToken, 10 * MiB));
  });

  it("restores only a job that trashed, and purges trash on request", async () => {
    const db = t.current.db;
    const runs = (await listRuns(db, { limit: 50 })).runs.filter(
      (r) => r.action === "trash" && r.progress.states.done > 0,
    );
    const job = (await getRunDetail(db, runs[0].id))!.jobs.find((j) => j.state === "done")!;
    const restore = await queueRestore(db, job.id, ADMIN);
    const all = await claimJobs(db, job.workspaceId);
    const [claimed] = all.filter((j) => j.kind === "restore");
    expect(claimed).toMatchObject({ kind: "restore", sourceJobId: job.id });
    expect((await getRunDetail(db, restore.id))!.run.kind).toBe("restore");
    await expect(queueRestore(db, claimed.id, ADMIN)).rejects.toMatchObject({ status: 409 });

    const deleted = await createRun(db, { ...RUN, action: "delete", scope: { workspaceIds: ["cl-b"] } }, ADMIN);
    const [dj] = await claimJobs(db, "cl-b");
    await storeJobResult(db, "cl-b", dj.id, doneResult(dj.leaseToken, 400 * MiB, 4, "deleted"));
    await expect(queueRestore(db, dj.id, ADMIN)).rejects.toMatchObject({ status: 409 });
    expect((await getRunDetail(db, deleted.id))!.run.action).toBe("delete");

    const purge = await queueTrashPurge(db, ["cl-a", "cl-e", "no-such"], ADMIN);
    expect(purge.jobs).toBe(2);
    expect((await claimJobs(db, "cl-e")).map((j) => [j.kind, j.sourceJobId])).toEqual([["purge-trash", null]]);
  });

  it("pages runs by key, newest first", async () => {
    const first = await listRuns(t.current.db, { limit: 2 });
    expect(first.runs).toHaveLength(2);
    const second = await listRuns(t.current.db, {
      limit: 2,
      cursor: { at: new Date(first.nextCursor!.split("_")[0]), id: first.nextCursor!.split("_")[1] },
    });
    expect(second.runs[0].id).not.toBe(first.runs[1].id);
    expect(Date.parse(second.runs[0].createdAt)).toBeLessThanOrEqual(Date.parse(first.runs[1].createdAt));
  });

  it("audits every step with who did it", async () => {
    const rows = await t.current.db.select().from(auditLog).where(like(auditLog.action, "cleanup.%"));
    const actions = new Set(rows.map((r) => r.action));
    for (const a of [
      "cleanup.run_created",
      "cleanup.jobs_claimed",
      "cleanup.job_result",
      "cleanup.run_cancelled",
      "cleanup.restore_queued",
      "cleanup.trash_purge_queued",
      "cleanup.job_interrupted",
      "cleanup.jobs_expired",
    ]) {
      expect(actions, a).toContain(a);
    }
    const [claim] = await t.current.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "cleanup.job_result"), eq(auditLog.actorId, "cl-a")));
    expect(claim).toMatchObject({ actorType: "workspace", actorLabel: "alice/cl-a" });
  });
});
