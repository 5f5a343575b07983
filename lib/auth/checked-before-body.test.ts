// The routes that authenticate by their own means (enrollment key, workspace token, setup still open) check
// before they read the body, as requireCaller does for the others: a caller without the credential gets 401 (or
// 409 for setup once it is over), never a parse or schema error that would tell it what the body should be.
import { expect, it } from "vitest";
import { POST as enroll } from "@/app/api/v1/enroll/route";
import { POST as progress } from "@/app/api/v1/jobs/[id]/progress/route";
import { POST as result } from "@/app/api/v1/jobs/[id]/result/route";
import { POST as claim } from "@/app/api/v1/jobs/claim/route";
import { POST as reports } from "@/app/api/v1/reports/route";
import { POST as batch } from "@/app/api/v1/reports/batch/route";
import { POST as setup } from "@/app/api/v1/setup/route";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { BASE, ctx } from "@/tests/support/auth";
import { createUser } from "@/lib/services/users";

const garbage = (path: string, headers: Record<string, string> = {}) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: "{ not json",
  });
const params = ctx({ id: "00000000-0000-4000-8000-000000000000" });

describeEachDatabase("credentials are checked before the body is read", (t) => {
  it("enroll: 401 without the enrollment key or with a wrong one, 400 with it", async () => {
    serveRoutesFrom(t.current);
    expect((await enroll(garbage("/api/v1/enroll"), ctx())).status).toBe(401);
    expect((await enroll(garbage("/api/v1/enroll", { "x-enrollment-key": "sek_wrong" }), ctx())).status).toBe(401);
    const key = (await getEnrollmentKey(t.current.db)).key;
    expect((await enroll(garbage("/api/v1/enroll", { "x-enrollment-key": key }), ctx())).status).toBe(400);
  });

  it("workspace routes: 401 without a valid workspace token", async () => {
    serveRoutesFrom(t.current);
    const bogus = { authorization: "Bearer swt_bogus" };
    const routes: [string, (r: Request, c: typeof params) => Promise<Response>][] = [
      ["/api/v1/reports", reports],
      ["/api/v1/reports/batch", batch],
      ["/api/v1/jobs/claim", claim],
      ["/api/v1/jobs/x/progress", progress],
      ["/api/v1/jobs/x/result", result],
    ];
    for (const [path, route] of routes) {
      const request = garbage(path, bogus);
      expect((await route(request, path.includes("/x/") ? params : ctx())).status, path).toBe(401);
      expect(request.bodyUsed, path).toBe(false);
    }
  });

  it("setup: 400 while open, 409 once an admin exists", async () => {
    serveRoutesFrom(t.current);
    expect((await setup(garbage("/api/v1/setup"), ctx())).status).toBe(400);
    await createUser(t.current.db, { email: "admin@example.com", role: "admin" }, TEST_WHO);
    expect((await setup(garbage("/api/v1/setup"), ctx())).status).toBe(409);
  });
});
