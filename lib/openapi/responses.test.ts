// The response schemas the OpenAPI document shows are the routes' real answers: each route is called on both
// databases and its body parsed strictly with its schema.
import { beforeAll, expect, it } from "vitest";
import type { z } from "zod";
import * as enrollRoute from "@/app/api/v1/enroll/route";
import * as healthRoute from "@/app/api/v1/health/route";
import * as progressRoute from "@/app/api/v1/jobs/[id]/progress/route";
import * as resultRoute from "@/app/api/v1/jobs/[id]/result/route";
import * as reportsRoute from "@/app/api/v1/reports/route";
import { BASE, ctx } from "@/tests/support/auth";
import { claimJobs } from "@/lib/services/cleanup-jobs";
import { createRun } from "@/lib/services/cleanup-runs";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { claudeRoot, doneResult, seedWorkspace, usage } from "@/tests/support/cleanup";
import { makeReport, MiB } from "@/tests/support/reports";
import {
  enrollResponse,
  errorEnvelope,
  healthResponse,
  ingestResponse,
  jobProgressResponse,
  jobResultResponse,
} from "@/lib/validations/responses";

/** The body parsed with `schema` made strict at its top level: a field the schema does not describe fails. */
async function body<S extends z.ZodObject>(res: Response, schema: S, status = 200): Promise<z.infer<S>> {
  expect(res.status, await res.clone().text()).toBe(status);
  return schema.strict().parse(await res.json()) as z.infer<S>;
}

const post = (path: string, headers: Record<string, string>, payload: unknown) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(payload),
  });

describeEachDatabase("response schemas", (t) => {
  beforeAll(() => serveRoutesFrom(t.current));

  it("health, enroll and ingest answer as described, and errors in the envelope", async () => {
    await body(await healthRoute.GET(), healthResponse);
    const key = (await getEnrollmentKey(t.current.db)).key;
    const ws = { id: "ws-schema", name: "schema", owner: "sam" };
    const enrolled = await body(
      await enrollRoute.POST(post("/api/v1/enroll", { "x-enrollment-key": key }, { workspace: ws }), ctx()),
      enrollResponse,
    );
    const report = makeReport(ws, new Date().toISOString(), [{ key: "codex:data", agent: "codex", bytes: MiB }]);
    const auth = { authorization: `Bearer ${enrolled.token}` };
    expect(await body(await reportsRoute.POST(post("/api/v1/reports", auth, report), ctx()), ingestResponse)).toEqual({
      reportId: report.id,
      workspaceId: ws.id,
      status: "stored",
      newest: true,
      roots: 1,
      inbox: [],
    });
    const refused = await reportsRoute.POST(post("/api/v1/reports", { authorization: "Bearer swt_x" }, report), ctx());
    expect((await body(refused, errorEnvelope, 401)).error.code).toBe("unauthorized");
  });

  it("a job's progress and result answer as described", async () => {
    const db = t.current.db;
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    const ws = await seedWorkspace(db, { id: "ws-job", owner: "jo" }, when, [claudeRoot(usage({ 60: [2, 20 * MiB] }))]);
    await createRun(
      db,
      {
        recipe: "claude-code-sessions",
        params: { olderThanDays: 30 },
        scope: { workspaceIds: ["ws-job"] },
        dryRun: false,
        trashDays: 7,
        minAgeHours: 24,
        countStatusChanges: false,
      },
      TEST_WHO,
    );
    const [job] = await claimJobs(db, "ws-job");
    const auth = { authorization: `Bearer ${ws.token}` };
    const params = ctx({ id: job.id });
    const progress = post(`/api/v1/jobs/${job.id}/progress`, auth, { leaseToken: job.leaseToken });
    expect(await body(await progressRoute.POST(progress, params), jobProgressResponse)).toMatchObject({
      cancelled: false,
    });
    const result = post(`/api/v1/jobs/${job.id}/result`, auth, doneResult(job.leaseToken, 20 * MiB, 2));
    expect(await body(await resultRoute.POST(result, params), jobResultResponse)).toEqual({
      jobId: job.id,
      state: "done",
      stored: true,
    });
  });
});
