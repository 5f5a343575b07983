// Truncating one log on the server, on both databases: only an admin queues it, only for a log the latest
// report lists (never a database), at the size confirmed; bad input is refused with nothing stored. The job is
// claimed with its file, its result is stored once and the audit log keeps the file and what it freed.
import { eq, like } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as claimRoute from "@/app/api/v1/jobs/claim/route";
import * as resultRoute from "@/app/api/v1/jobs/[id]/result/route";
import * as truncateRoute from "@/app/api/v1/cleanup/truncate/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
import type { ClaimedJob, JobResult } from "@/lib/cleanup/protocol";
import { auditLog, cleanupJobs, cleanupRuns } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { auditTargets } from "@/lib/db/queries/audit-targets";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import type { LargestEntry } from "@/lib/report-format/schema";
import { seedWorkspace, type Enrolled } from "@/tests/support/cleanup";
import { GiB, MiB } from "@/tests/support/reports";

const when = new Date().toISOString();
const file = (p: string, bytes: number): LargestEntry => ({ path: p, bytes, mtime: when, type: "file" });
const LOG = { workspaceId: "tr-a", rootKey: "codex:data", path: "log/codex-tui.log" };

describeEachDatabase("truncating a log", (t) => {
  let ws: Enrolled;
  let p: Principals;
  const post = (headers: Record<string, string>, body: unknown) =>
    truncateRoute.POST(
      new Request(`${BASE}/api/v1/cleanup/truncate`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      ctx(),
    );
  const stored = async () => ({
    runs: (await t.current.db.select().from(cleanupRuns).where(eq(cleanupRuns.kind, "truncate"))).length,
    audit: (await t.current.db.select().from(auditLog).where(like(auditLog.action, "cleanup.truncate%"))).length,
  });

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    ws = await seedWorkspace(t.current.db, { id: "tr-a", owner: "alice" }, when, [
      {
        key: "codex:data",
        agent: "codex",
        bytes: 60 * GiB,
        largest: [
          file("log/codex-tui.log", 50 * GiB),
          file("logs_2.sqlite", 5 * GiB),
          file("history.jsonl", 2 * GiB),
          { ...file("log/odd\\xff.log", GiB), pathEncoding: "escaped" },
        ],
      },
    ]);
    p = await makePrincipals(t.current, "truncate");
  });

  it("is refused to viewers (403) and to bad input, storing nothing", async () => {
    const admin = { cookie: p.admin.cookie };
    const refused: [Record<string, string>, unknown, number, RegExp][] = [
      [{ cookie: p.viewer.cookie }, { ...LOG, confirmBytes: 50 * GiB }, 403, /admin/i],
      [{ authorization: `Bearer ${p.viewerToken}` }, { ...LOG, confirmBytes: 50 * GiB }, 403, /admin/i],
      [admin, { ...LOG, path: "../../.bashrc", confirmBytes: 1 }, 422, /\.\./],
      [admin, { ...LOG, path: "/etc/passwd", confirmBytes: 1 }, 422, /relative/],
      [admin, { ...LOG, confirmBytes: "50 GiB" }, 422, /confirmBytes/],
      [admin, { ...LOG, path: "logs_2.sqlite", confirmBytes: 5 * GiB }, 422, /is a database/],
      [admin, { ...LOG, path: "history.jsonl", confirmBytes: 2 * GiB }, 422, /not a log file/],
      [admin, { ...LOG, path: "log/other.log", confirmBytes: 1 }, 422, /lists no file log\/other\.log/],
      [admin, { ...LOG, rootKey: "claude-code:data", confirmBytes: 50 * GiB }, 422, /lists no file/],
      [admin, { ...LOG, path: "log/odd\\xff.log", confirmBytes: GiB }, 422, /not plain text/],
      [admin, { ...LOG, workspaceId: "nobody", confirmBytes: 50 * GiB }, 404, /No workspace nobody/],
      [admin, { ...LOG, confirmBytes: 10 * GiB }, 409, /now 50 GiB .* you confirmed 10 GiB/],
    ];
    for (const [headers, body, status, message] of refused) {
      const res = await post(headers, body);
      const text = await res.text();
      expect(res.status, text).toBe(status);
      expect(JSON.parse(text).error.message).toMatch(message);
    }
    expect(await stored()).toEqual({ runs: 0, audit: 0 });
  });

  it("queues one job with the file for an admin, hands it to the reporter and audits the bytes freed", async () => {
    const db = t.current.db;
    const res = await post({ authorization: `Bearer ${p.adminToken}` }, { ...LOG, confirmBytes: 50 * GiB });
    expect(res.status).toBe(201);
    const { id, jobs } = await res.json();
    expect(jobs).toBe(1);
    const [queued] = await db.select().from(auditLog).where(eq(auditLog.action, "cleanup.truncate_queued"));
    expect(queued).toMatchObject({ target: id, actorLabel: `admin-truncate` });
    expect(queued.details).toMatchObject({ workspaceId: "tr-a", path: "log/codex-tui.log", bytes: 50 * GiB });
    expect((await auditTargets(db, [queued])).get(queued.id)).toMatchObject({
      label: expect.stringMatching(/^run: truncate a log, /),
      href: `/cleanup/runs/${id}`,
    });
    const detail = (await getRunDetail(db, id))!;
    expect(detail.run).toMatchObject({
      kind: "truncate",
      target: { rootKey: "codex:data", path: "log/codex-tui.log", bytes: 50 * GiB },
      previewBytes: 50 * GiB,
      dryRun: false,
      scope: { workspaceIds: ["tr-a"] },
    });

    const claim = async (body?: unknown) => {
      const res = await claimRoute.POST(
        new Request(`${BASE}/api/v1/jobs/claim`, {
          method: "POST",
          headers: { authorization: `Bearer ${ws.token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        ctx(),
      );
      expect(res.status).toBe(200);
      return (await res.json()).jobs as ClaimedJob[];
    };
    // a reporter from before truncate jobs (it would run an unknown kind as purge-trash) is handed none
    expect(await claim()).toEqual([]);
    expect(await claim({})).toEqual([]);
    expect(await claim({ kinds: ["cleanup", "restore", "purge-trash"] })).toEqual([]);
    const [job] = await claim({ kinds: ["cleanup", "restore", "purge-trash", "truncate"] });
    expect(job).toMatchObject({
      kind: "truncate",
      recipe: null,
      dryRun: false,
      truncate: { rootKey: "codex:data", path: "log/codex-tui.log", bytes: 50 * GiB },
    });
    const now = new Date().toISOString();
    const result: JobResult = {
      leaseToken: job.leaseToken,
      status: "done",
      unitsActed: 1,
      bytesActed: 50 * GiB + 3 * MiB,
      units: [{ path: ".codex/log/codex-tui.log", bytes: 50 * GiB + 3 * MiB, action: "truncated" }],
      skipped: [],
      errors: [],
      logTail: [],
      startedAt: now,
      finishedAt: now,
    };
    const sent = await resultRoute.POST(
      new Request(`${BASE}/api/v1/jobs/${job.id}/result`, {
        method: "POST",
        headers: { authorization: `Bearer ${ws.token}`, "content-type": "application/json" },
        body: JSON.stringify(result),
      }),
      ctx({ id: job.id }),
    );
    expect(sent.status).toBe(200);
    const [done] = await db.select().from(cleanupJobs).where(eq(cleanupJobs.id, job.id));
    expect(done).toMatchObject({ state: "done", bytesActed: 50 * GiB + 3 * MiB, unitsActed: 1 });
    const [audited] = await db.select().from(auditLog).where(eq(auditLog.target, job.id));
    expect(audited.action).toBe("cleanup.job_result");
    expect(audited.details).toMatchObject({
      truncated: [{ path: ".codex/log/codex-tui.log", bytesFreed: 50 * GiB + 3 * MiB }],
      refused: [],
    });
  });
});
