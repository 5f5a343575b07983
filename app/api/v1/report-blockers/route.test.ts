// Why a workspace cannot report: the module's one small request, and the overview's list of workspaces that do
// not report, on both databases.
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { notReportingWorkspaces } from "@/lib/db/queries/coverage";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { makeReport } from "@/tests/support/reports";
import { POST as enroll } from "../enroll/route";
import { POST as postReport } from "../reports/route";
import { POST as postBlocker } from "./route";

const ctx = { params: Promise.resolve({}) };
const post = (handler: typeof postBlocker, path: string, body: unknown, headers: Record<string, string>) =>
  handler(
    new Request(`http://dashboard.test${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    ctx,
  );

describeEachDatabase("POST /api/v1/report-blockers", (t) => {
  let key = "";
  const base = { id: "ws-base", name: "base", owner: "bob", template: "docker-base" };
  const blocker = (workspace: object, reason = "no-runtime") => ({ workspace, reason, detail: "no node here" });
  const count = async (table: string) =>
    Number(rowsOf<{ n: number }>(await t.current.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n);

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    key = (await getEnrollmentKey(t.current.db)).key;
  });

  it("refuses a caller without the enrollment key or a workspace token, before reading the body", async () => {
    expect((await post(postBlocker, "/api/v1/report-blockers", blocker(base), {})).status).toBe(401);
    const wrong = await post(postBlocker, "/api/v1/report-blockers", "garbage", { "x-enrollment-key": "sek_wrong" });
    expect(wrong.status).toBe(401);
    expect(await count("report_blockers")).toBe(0);
  });

  it("refuses an unknown reason with a clear error, and changes nothing", async () => {
    const res = await post(postBlocker, "/api/v1/report-blockers", blocker(base, "bored"), { "x-enrollment-key": key });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/reason/);
    expect(await count("report_blockers")).toBe(0);
  });

  it("keeps the reason with the key, and enrolls nothing: no workspace row, no token", async () => {
    const res = await post(postBlocker, "/api/v1/report-blockers", blocker(base), { "x-enrollment-key": key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ recorded: true });
    expect(await count("workspaces")).toBe(0);
    expect(await count("workspace_tokens")).toBe(0);
    const list = await notReportingWorkspaces(t.current.db, 10);
    expect(list).toMatchObject({
      total: 1,
      workspaces: [
        { id: "ws-base", owner: "bob", reason: "no-runtime", detail: "no node here", lastCollectedAt: null },
      ],
    });
  });

  it("takes a workspace's token for its own id only", async () => {
    const ws = { id: "ws-token", name: "tok", owner: "ann" };
    const enrolled = await post(enroll, "/api/v1/enroll", { workspace: ws }, { "x-enrollment-key": key });
    const { token } = (await enrolled.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    expect((await post(postBlocker, "/api/v1/report-blockers", blocker(base), auth)).status).toBe(403);
    expect((await post(postBlocker, "/api/v1/report-blockers", blocker(ws, "runtime-checksum"), auth)).status).toBe(
      200,
    );
  });

  it("lists a reason until the workspace reports after it; the newest reason first", async () => {
    const before = await notReportingWorkspaces(t.current.db, 10);
    expect(before.workspaces.map((w) => w.id)).toEqual(["ws-token", "ws-base"]);
    const enrolled = await post(enroll, "/api/v1/enroll", { workspace: base }, { "x-enrollment-key": key });
    const { token } = (await enrolled.json()) as { token: string };
    const report = makeReport(base, new Date().toISOString(), [
      { key: "claude-code:data", agent: "claude-code", bytes: 4096 },
    ]);
    const res = await post(postReport, "/api/v1/reports", report, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    const after = await notReportingWorkspaces(t.current.db, 10);
    expect(after.workspaces.map((w) => w.id)).toEqual(["ws-token"]);
    expect(after.total).toBe(1);
  });
});
