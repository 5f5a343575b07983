// A job's result: the job and its lease are checked before a byte of the body is read (a made-up job id once
// made the server gunzip and parse 32 MiB), and the unit lists are read element by element.
import { eq } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { claimJobs } from "@/lib/services/cleanup-jobs";
import { cleanupJobResults } from "@/lib/db/schema";
import { createRun } from "@/lib/services/cleanup-runs";
import { MAX_JSON_ITEMS } from "@/lib/http/request";
import { BASE, ctx } from "@/tests/support/auth";
import { claudeRoot, doneResult, seedWorkspace, usage, type Enrolled } from "@/tests/support/cleanup";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { MiB } from "@/tests/support/reports";
import { POST } from "./route";

/** A request whose body says when it is read: `bodyUsed` stays false until something pulls from it. */
function unread(jobId: string, headers: Record<string, string>) {
  const body = new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(64 * 1024)) }, { highWaterMark: 0 });
  return new Request(`${BASE}/api/v1/jobs/${jobId}/result`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

const send = (jobId: string, headers: Record<string, string>, payload: unknown) =>
  POST(
    new Request(`${BASE}/api/v1/jobs/${jobId}/result`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
    }),
    ctx({ id: jobId }),
  );

describeEachDatabase("POST /api/v1/jobs/{id}/result", (t) => {
  let ws: Enrolled, other: Enrolled, job: { id: string; leaseToken: string };
  let n = 0; // the database is the same for every test of a describe
  beforeEach(async () => {
    n++;
    serveRoutesFrom(t.current);
    const db = t.current.db;
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    ws = await seedWorkspace(db, { id: `ws-r${n}`, owner: "jo" }, when, [claudeRoot(usage({ 60: [2, 20 * MiB] }))]);
    other = await seedWorkspace(db, { id: `ws-o${n}`, owner: "al" }, when, [claudeRoot(null)]);
    const run = {
      recipe: "claude-code-sessions" as const,
      params: { olderThanDays: 30 },
      scope: { workspaceIds: [ws.id] },
    };
    await createRun(db, { ...run, dryRun: false, trashDays: 7, minAgeHours: 24, countStatusChanges: false }, TEST_WHO);
    [job] = await claimJobs(db, ws.id);
  });

  it("answers an unknown job, another workspace's, a wrong lease or an ended job without reading the body", async () => {
    const auth = { authorization: `Bearer ${ws.token}` };
    const cases: [string, Record<string, string>, number][] = [
      ["00000000-0000-4000-8000-000000000000", auth, 404],
      [job.id, { authorization: `Bearer ${other.token}` }, 403],
      [job.id, { ...auth, "x-lease-token": "slt_not_the_lease" }, 409],
    ];
    for (const [id, headers, status] of cases) {
      const request = unread(id, headers);
      expect((await POST(request, ctx({ id }))).status).toBe(status);
      expect(request.bodyUsed).toBe(false);
    }
    // once stored, only a resend under the same lease is read; without the header (older reporters) too
    expect((await send(job.id, auth, doneResult(job.leaseToken, MiB))).status).toBe(200);
    const request = unread(job.id, { ...auth, "x-lease-token": "slt_stale" });
    expect((await POST(request, ctx({ id: job.id }))).status).toBe(409);
    expect(request.bodyUsed).toBe(false);
  });

  it("stores the unit lists read one unit at a time, as sent, once", async () => {
    const headers = { authorization: `Bearer ${ws.token}`, "x-lease-token": job.leaseToken };
    const result = doneResult(job.leaseToken, 20 * MiB, 3);
    const elsewhere = { ...headers, "x-lease-token": "slt_other" };
    expect((await send(job.id, elsewhere, result)).status).toBe(409);
    expect(await (await send(job.id, headers, result)).json()).toMatchObject({ state: "done", stored: true });
    expect(await (await send(job.id, headers, result)).json()).toMatchObject({ stored: false });
    const [row] = await t.current.db.select().from(cleanupJobResults).where(eq(cleanupJobResults.jobId, job.id));
    expect({ units: row.units, skipped: row.skipped }).toEqual({ units: result.units, skipped: result.skipped });
  });

  it("keeps lists longer than one stored part whole and in order, and an empty list empty", async () => {
    const headers = { authorization: `Bearer ${ws.token}`, "x-lease-token": job.leaseToken };
    const result = { ...doneResult(job.leaseToken, 2_501 * MiB, 2_501), skipped: [] };
    expect((await send(job.id, headers, result)).status).toBe(200);
    const [row] = await t.current.db.select().from(cleanupJobResults).where(eq(cleanupJobResults.jobId, job.id));
    expect({ units: row.units, skipped: row.skipped }).toEqual({ units: result.units, skipped: [] });
  });

  it("names the unit that fails, and refuses an over-long list while reading it", async () => {
    const headers = { authorization: `Bearer ${ws.token}`, "x-lease-token": job.leaseToken };
    const result = doneResult(job.leaseToken, MiB, 2);
    const bad = await send(job.id, headers, { ...result, units: [result.units[0], { ...result.units[1], path: "" }] });
    expect(await bad.json()).toMatchObject({
      error: { code: "invalid", details: { issues: [{ path: "units.1.path" }] } },
    });
    const long = JSON.stringify({ ...result, logTail: [] }).replace(
      '"logTail":[]',
      `"logTail":[${"0,".repeat(MAX_JSON_ITEMS)}0]`,
    );
    expect((await send(job.id, headers, long)).status).toBe(413);
  });
});
