// A member (signed in with Coder) sees only the workspaces they own in Coder: every route open to members,
// called as one, answers with their own workspace's data and nothing of any other owner's; a workspace of
// someone else's is 404 alike an unknown one. Driven by lib/auth/route-access.ts, so that a route opened to
// members without a case here fails. (access.test.ts checks that members are refused every other route.)
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as adminsRoute from "@/app/api/v1/admins/route";
import * as exportFindingsRoute from "@/app/api/v1/export/findings.csv/route";
import * as exportUsageRoute from "@/app/api/v1/export/usage.csv/route";
import * as exportWorkspaceTableRoute from "@/app/api/v1/export/workspaces/[id]/[table]/route";
import * as exportWorkspacesRoute from "@/app/api/v1/export/workspaces.csv/route";
import * as rulesRoute from "@/app/api/v1/findings/rules/route";
import * as findingsRoute from "@/app/api/v1/findings/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as myPreviewRoute from "@/app/api/v1/me/cleanup/preview/route";
import * as myRestoreRoute from "@/app/api/v1/me/cleanup/jobs/[id]/restore/route";
import * as myRunsRoute from "@/app/api/v1/me/cleanup/runs/route";
import * as myKeepRoute from "@/app/api/v1/me/keeps/[id]/route";
import * as myKeepsRoute from "@/app/api/v1/me/keeps/route";
import * as myStorageRoute from "@/app/api/v1/me/storage/route";
import * as workspaceRoute from "@/app/api/v1/workspaces/[id]/route";
import * as workspacesRoute from "@/app/api/v1/workspaces/route";
import { users } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { seedScenario, testNow, WS_A, WS_B, WS_C, WS_D } from "@/tests/support/reports";
import { ROUTE_ACCESS } from "./route-access";
import { BASE, ctx, signIn } from "@/tests/support/auth";
import { createUser } from "@/lib/services/users";
import * as usageRoute from "@/app/api/v1/usage/route";
import * as exportUsageByRoute from "@/app/api/v1/export/usage-by.csv/route";
import * as noticePreferencesRoute from "@/app/api/v1/me/notification-preferences/route";
import * as workspaceNoticesRoute from "@/app/api/v1/workspaces/[id]/notices/route";
import * as exportWorkspaceNoticesRoute from "@/app/api/v1/export/workspaces/[id]/notices.csv/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/**
 * A call of a member route; `own`: whether the answer must hold the member's own data (a data route): their
 * workspace's id, or `mark` where the answer names no workspace.
 */
type Case = {
  module: Record<string, unknown>;
  url: string;
  params?: Record<string, string>;
  own: boolean;
  mark?: string;
  /** A mutation's body (the call is a POST or DELETE then), and the status it answers when not 200. */
  body?: unknown;
  status?: number;
};

const NO_ID = "00000000-0000-4000-8000-000000000000";

const OTHERS = [WS_B, WS_C, WS_D];
/** What would give another owner's data away: their workspaces' ids and names, and their names. */
const FOREIGN = OTHERS.flatMap((w) => [w.id, w.name!, w.owner]);

/** Each member route, called for the member's own data, and with filters that name someone else's. */
const CASES: Record<string, Case[]> = {
  "GET /api/v1/me": [{ module: meRoute, url: "/api/v1/me", own: false }],
  "GET /api/v1/admins": [{ module: adminsRoute, url: "/api/v1/admins", own: false }],
  "GET /api/v1/workspaces": [
    { module: workspacesRoute, url: "/api/v1/workspaces?pageSize=200", own: true },
    { module: workspacesRoute, url: "/api/v1/workspaces?owner=bob", own: false },
    { module: workspacesRoute, url: "/api/v1/workspaces?q=ws-&sort=name&dir=asc", own: true },
    // Coder's filters (the workspace sync) stay within the scope too.
    { module: workspacesRoute, url: "/api/v1/workspaces?status=deleted", own: false },
    { module: workspacesRoute, url: "/api/v1/workspaces?reporting=yes&dormant=false", own: true },
  ],
  "GET /api/v1/workspaces/[id]": [
    { module: workspaceRoute, url: `/api/v1/workspaces/${WS_A.id}?range=30d`, params: { id: WS_A.id }, own: true },
  ],
  "GET /api/v1/findings": [
    { module: findingsRoute, url: "/api/v1/findings?limit=500", own: true },
    { module: findingsRoute, url: "/api/v1/findings?owner=bob", own: false },
  ],
  "GET /api/v1/findings/rules": [{ module: rulesRoute, url: "/api/v1/findings/rules", own: false }],
  // My storage: the member's own workspaces; a job or Keep that is not theirs is not found.
  "GET /api/v1/me/storage": [{ module: myStorageRoute, url: "/api/v1/me/storage", own: true }],
  "POST /api/v1/me/cleanup/preview": [
    {
      module: myPreviewRoute,
      url: "/api/v1/me/cleanup/preview",
      body: { workspaceId: WS_A.id, recipe: "claude-code-sessions" },
      own: true,
    },
  ],
  "POST /api/v1/me/cleanup/runs": [
    {
      module: myRunsRoute,
      url: "/api/v1/me/cleanup/runs",
      body: { workspaceId: WS_A.id, recipe: "npm-cache", confirmBytes: 0 },
      own: false,
      status: 422,
    },
  ],
  "POST /api/v1/me/cleanup/jobs/[id]/restore": [
    {
      module: myRestoreRoute,
      url: `/api/v1/me/cleanup/jobs/${NO_ID}/restore`,
      params: { id: NO_ID },
      body: null,
      own: false,
      status: 404,
    },
  ],
  "POST /api/v1/me/keeps": [
    {
      module: myKeepsRoute,
      url: "/api/v1/me/keeps",
      body: { workspaceId: WS_A.id, path: ".ssh", days: 3 },
      own: false,
      status: 422,
    },
  ],
  "DELETE /api/v1/me/keeps/[id]": [
    {
      module: myKeepRoute,
      url: `/api/v1/me/keeps/${NO_ID}`,
      params: { id: NO_ID },
      body: null,
      own: false,
      status: 404,
    },
  ],
  "GET /api/v1/export/usage.csv": [
    { module: exportUsageRoute, url: "/api/v1/export/usage.csv?range=30d", own: true },
    { module: exportUsageRoute, url: "/api/v1/export/usage.csv?range=30d&granularity=report", own: true },
    { module: exportUsageRoute, url: `/api/v1/export/usage.csv?range=30d&workspace=${WS_B.id},${WS_A.id}`, own: true },
    { module: exportUsageRoute, url: "/api/v1/export/usage.csv?range=30d&owner=bob", own: false },
  ],
  "GET /api/v1/export/workspaces.csv": [
    { module: exportWorkspacesRoute, url: "/api/v1/export/workspaces.csv", own: true },
    { module: exportWorkspacesRoute, url: "/api/v1/export/workspaces.csv?reporting=yes&dormant=false", own: true },
  ],
  "GET /api/v1/export/findings.csv": [{ module: exportFindingsRoute, url: "/api/v1/export/findings.csv", own: true }],
  "GET /api/v1/export/workspaces/[id]/[table]": [
    {
      module: exportWorkspaceTableRoute,
      url: `/api/v1/export/workspaces/${WS_A.id}/roots.csv`,
      params: { id: WS_A.id, table: "roots.csv" },
      own: true,
      mark: "claude-code:data",
    },
  ],
  // The usage by team, the month to date: the member's rows only (the owner dimension names no other owner).
  "GET /api/v1/usage": [{ module: usageRoute, url: "/api/v1/usage?dimension=owner", own: false }],
  "GET /api/v1/export/usage-by.csv": [
    { module: exportUsageByRoute, url: "/api/v1/export/usage-by.csv?dimension=owner", own: false },
  ],
  // What the member hears: their own switches.
  "GET /api/v1/me/notification-preferences": [
    { module: noticePreferencesRoute, url: "/api/v1/me/notification-preferences", own: false },
  ],
  "PUT /api/v1/me/notification-preferences": [
    {
      module: noticePreferencesRoute,
      url: "/api/v1/me/notification-preferences",
      body: { channels: { email: { filling: false } } },
      own: false,
    },
  ],
  "GET /api/v1/workspaces/[id]/notices": [
    {
      module: workspaceNoticesRoute,
      url: `/api/v1/workspaces/${WS_A.id}/notices`,
      params: { id: WS_A.id },
      own: false,
    },
  ],
  "GET /api/v1/export/workspaces/[id]/notices.csv": [
    {
      module: exportWorkspaceNoticesRoute,
      url: `/api/v1/export/workspaces/${WS_A.id}/notices.csv`,
      params: { id: WS_A.id },
      own: false,
    },
  ],
};

/** Routes that name one workspace: asked for another owner's, a member gets what an unknown id gets. */
const BY_ID: Record<string, (id: string) => Case> = {
  "GET /api/v1/workspaces/[id]": (id) => ({
    module: workspaceRoute,
    url: `/api/v1/workspaces/${id}`,
    params: { id },
    own: false,
  }),
  "GET /api/v1/export/workspaces/[id]/[table]": (id) => ({
    module: exportWorkspaceTableRoute,
    url: `/api/v1/export/workspaces/${id}/roots.csv`,
    params: { id, table: "roots.csv" },
    own: false,
  }),
  "GET /api/v1/workspaces/[id]/notices": (id) => ({
    module: workspaceNoticesRoute,
    url: `/api/v1/workspaces/${id}/notices`,
    params: { id },
    own: false,
  }),
  "GET /api/v1/export/workspaces/[id]/notices.csv": (id) => ({
    module: exportWorkspaceNoticesRoute,
    url: `/api/v1/export/workspaces/${id}/notices.csv`,
    params: { id },
    own: false,
  }),
  "POST /api/v1/me/cleanup/preview": (id) => ({
    module: myPreviewRoute,
    url: "/api/v1/me/cleanup/preview",
    body: { workspaceId: id, recipe: "claude-code-sessions" },
    own: false,
  }),
  "POST /api/v1/me/cleanup/runs": (id) => ({
    module: myRunsRoute,
    url: "/api/v1/me/cleanup/runs",
    body: { workspaceId: id, recipe: "claude-code-sessions", confirmBytes: 1 },
    own: false,
  }),
  "POST /api/v1/me/keeps": (id) => ({
    module: myKeepsRoute,
    url: "/api/v1/me/keeps",
    body: { workspaceId: id, path: ".claude", days: 3 },
    own: false,
  }),
};

const memberRoutes = ROUTE_ACCESS.filter((r) => r.access === "member").map((r) => `${r.method} ${r.path}`);

describeEachDatabase("a member sees only their own workspaces", (t) => {
  let cookie = "";

  async function call(c: Case, method = "GET"): Promise<Response> {
    const verb = c.body === undefined ? method : method === "GET" ? "POST" : method;
    const handler = c.module[verb] as Handler;
    const init: RequestInit = { method: verb, headers: { cookie } };
    if (c.body) init.headers = { cookie, "content-type": "application/json" };
    if (c.body) init.body = JSON.stringify(c.body);
    return handler(new Request(`${BASE}${c.url}`, init), ctx(c.params ?? {}));
  }

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const db = t.current.db;
    await seedScenario(db, testNow());
    await createUser(db, { email: "admin-m@example.com", password: "admin-m-password-1", role: "admin" }, TEST_WHO);
    const email = "alice@example.com";
    const password = "alice-member-password-1";
    const user = await createUser(db, { email, password, role: "viewer" }, TEST_WHO);
    // What "Sign in with Coder" stores for a member; Coder's usernames compare without case.
    await db.update(users).set({ role: "member", coderUsername: "Alice" }).where(eq(users.id, user.id));
    cookie = await signIn(email, password);
  });

  it("has a case for every route open to members", () => {
    expect(Object.keys(CASES).sort()).toEqual([...memberRoutes].sort());
  });

  it.each(memberRoutes)("%s: the member's own data, nothing of anyone else's", async (route) => {
    for (const c of CASES[route]) {
      const res = await call(c, route.split(" ")[0]);
      const body = await res.text();
      expect(res.status, `${c.url}: ${body.slice(0, 300)}`).toBe(c.status ?? 200);
      for (const foreign of FOREIGN) expect(body, `${c.url} gives away "${foreign}"`).not.toContain(foreign);
      if (c.own) expect(body, `${c.url} shows the member's own workspace`).toContain(c.mark ?? WS_A.id);
    }
  });

  it.each(Object.keys(BY_ID))("%s: another owner's workspace is not found, as an unknown one", async (route) => {
    const unknown = await call(BY_ID[route]("ws-unknown"));
    expect(unknown.status).toBe(404);
    for (const other of OTHERS) {
      const res = await call(BY_ID[route](other.id));
      const body = await res.text();
      expect(res.status, body).toBe(404);
      for (const foreign of [other.name!, other.owner]) expect(body).not.toContain(foreign);
    }
  });

  it("a viewer of the same database sees every owner (the scope is the member's, not the data's)", async () => {
    const res = await workspacesRoute.GET(
      new Request(`${BASE}/api/v1/workspaces?pageSize=200`, {
        headers: { cookie: await signIn("admin-m@example.com", "admin-m-password-1") },
      }),
      ctx({}),
    );
    const body = await res.text();
    for (const ws of [WS_A, ...OTHERS]) expect(body).toContain(ws.id);
  });
});
