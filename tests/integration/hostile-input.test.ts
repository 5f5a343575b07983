// Generated hostile input (fast-check, from the endpoints' own zod schemas: tests/support/hostile.ts) against
// the route handlers, on both databases: every answer is a 4xx in the error envelope, never a 5xx, never a
// hang, and no row of any table is added or removed. HOSTILE_RUNS sets the count per endpoint and database (100
// here; the bench runs thousands).
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { z } from "zod";
import * as enrollRoute from "@/app/api/v1/enroll/route";
import * as reportsRoute from "@/app/api/v1/reports/route";
import * as resultRoute from "@/app/api/v1/jobs/[id]/result/route";
import * as runsRoute from "@/app/api/v1/cleanup/runs/route";
import * as policiesRoute from "@/app/api/v1/cleanup/policies/route";
import * as policyRoute from "@/app/api/v1/cleanup/policies/[id]/route";
import * as usersRoute from "@/app/api/v1/users/route";
import * as userRoute from "@/app/api/v1/users/[id]/route";
import * as tokensRoute from "@/app/api/v1/tokens/route";
import * as usageCsvRoute from "@/app/api/v1/export/usage.csv/route";
import * as findingsCsvRoute from "@/app/api/v1/export/findings.csv/route";
import * as workspacesCsvRoute from "@/app/api/v1/export/workspaces.csv/route";
import * as auditCsvRoute from "@/app/api/v1/export/audit.csv/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
import { jobResult } from "@/lib/cleanup/protocol";
import type { Db } from "@/lib/db";
import { claimJobs } from "@/lib/services/cleanup-jobs";
import { createPolicy } from "@/lib/services/cleanup-policies";
import { createRun } from "@/lib/services/cleanup-runs";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { enrollRequest, report } from "@/lib/report-format/schema";
import { createTokenRequest, createUserRequest, updateUserRequest } from "@/lib/validations/auth";
import { auditFilterQuery } from "@/lib/validations/audit";
import { createPolicyRequest, createRunRequest, updatePolicyRequest } from "@/lib/validations/cleanup";
import { usageExportQuery } from "@/lib/validations/export";
import { findingsFilterQuery } from "@/lib/validations/findings";
import { workspaceListQuery } from "@/lib/validations/workspaces";
import { claudeRoot, seedWorkspace, usage, type Enrolled, FLEET_CLAUDE_RUN } from "@/tests/support/cleanup";
import { hostileBody, hostileQuery, hostileRuns, mustRefuse, type HostileBody } from "@/tests/support/hostile";
import { makeReport, MiB, session } from "@/tests/support/reports";

/** A route handler, whatever its params (`never`: every handler's context type accepts it). */
type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
type BodyEndpoint = {
  name: string;
  method: "POST" | "PATCH";
  path: () => string;
  route: Route;
  params?: () => Record<string, string>;
  schema: z.ZodType;
  auth: () => Record<string, string>;
};
/** `lists`: the route reads a repeated parameter as a list (readQueryLists), the others keep its last value. */
type QueryEndpoint = { name: string; path: string; route: Route; schema: z.ZodType; lists?: boolean };

const RUNS = hostileRuns();
const HANG_MS = 15_000;
/** Per endpoint: inputs tried and answers by status class, printed at the end for the issue's figures. */
const tally = new Map<string, { tried: number; by: Record<string, number> }>();

function count(name: string, status: number) {
  const t = tally.get(name) ?? { tried: 0, by: {} };
  t.tried++;
  const cls = `${Math.floor(status / 100)}xx`;
  t.by[cls] = (t.by[cls] ?? 0) + 1;
  tally.set(name, t);
}

/**
 * Every row of every table, by table: what "nothing written" is checked against. Counted once the kept
 * aggregates' refresh after an earlier test's stored report is done: that background work is no request's writing.
 */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  await keptRefresherFor(db).drain();
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select format('%I.%I', table_schema, table_name) as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`),
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    out[name] = rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${name}`)))[0].n;
  }
  return out;
}

/** Calls a route, failing on a hang; returns the status and the parsed body (null when not JSON). */
async function call(route: Route, request: Request, params: Record<string, string> = {}) {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    const res = await Promise.race([route(request, ctx(params) as { params: Promise<never> }), hang]);
    const text = await Promise.race([res.text(), hang]);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the envelope check below fails with the text
    }
    return { status: res.status, body, text };
  } finally {
    clearTimeout(timer);
  }
}

/** The query as the route hands it to its schema. */
function queryAsRead(params: URLSearchParams, lists = false): Record<string, string | string[]> {
  if (!lists) return Object.fromEntries(params);
  const all = [...new Set(params.keys())].map((k) => [k, params.getAll(k)] as const);
  return Object.fromEntries(all.map(([k, v]) => [k, v.length > 1 ? v : v[0]]));
}

function expectRefusal(name: string, label: string, res: { status: number; body: unknown; text: string }) {
  count(name, res.status);
  const what = `${name} (${label}) answered ${res.status}: ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBeGreaterThanOrEqual(400);
  expect(res.status, what).toBeLessThan(500);
  const error = (res.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  expect(typeof error?.code, what).toBe("string");
  expect(typeof error?.message, what).toBe("string");
}

describeEachDatabase("hostile input", (t) => {
  let p: Principals;
  let ws: Enrolled;
  let enrollmentKey = "";
  const ids = { job: "", policy: "" };

  beforeAll(async () => {
    const db = t.current.db;
    serveRoutesFrom(t.current);
    p = await makePrincipals(t.current, "hostile");
    enrollmentKey = (await getEnrollmentKey(db)).key;
    ws = await seedWorkspace(db, { id: "hostile-ws", owner: "mallory" }, new Date().toISOString(), [
      claudeRoot(usage({ 60: [3, 30 * MiB] })),
    ]);
    const request = { ...FLEET_CLAUDE_RUN };
    await createRun(db, request, TEST_WHO);
    ids.job = (await claimJobs(db, ws.id))[0].id;
    const policy = createPolicyRequest.parse({ ...request, name: "hostile", schedule: "off" });
    ids.policy = (await createPolicy(db, policy, TEST_WHO)).id;
  });

  afterAll(() => {
    const lines = [...tally].map(
      ([name, { tried, by }]) =>
        `${name.padEnd(34)} ${String(tried).padStart(6)} tried  ${Object.entries(by)
          .map(([k, v]) => `${k} ${v}`)
          .join("  ")}`,
    );
    console.log(`hostile input on ${t.current.kind}:\n${lines.join("\n")}`);
    tally.clear();
  });

  const admin = () => ({ authorization: `Bearer ${p.adminToken}` });
  const workspace = () => ({ authorization: `Bearer ${ws.token}` });

  const BODIES: BodyEndpoint[] = [
    {
      name: "POST /api/v1/enroll",
      method: "POST",
      path: () => "/api/v1/enroll",
      route: enrollRoute.POST,
      schema: enrollRequest,
      auth: () => ({ "x-enrollment-key": enrollmentKey }),
    },
    {
      name: "POST /api/v1/reports",
      method: "POST",
      path: () => "/api/v1/reports",
      route: reportsRoute.POST,
      schema: report,
      auth: workspace,
    },
    {
      name: "POST /api/v1/jobs/{id}/result",
      method: "POST",
      path: () => `/api/v1/jobs/${ids.job}/result`,
      params: () => ({ id: ids.job }),
      route: resultRoute.POST,
      schema: jobResult,
      auth: workspace,
    },
    {
      name: "POST /api/v1/cleanup/runs",
      method: "POST",
      path: () => "/api/v1/cleanup/runs",
      route: runsRoute.POST,
      schema: createRunRequest,
      auth: admin,
    },
    {
      name: "POST /api/v1/cleanup/policies",
      method: "POST",
      path: () => "/api/v1/cleanup/policies",
      route: policiesRoute.POST,
      schema: createPolicyRequest,
      auth: admin,
    },
    {
      name: "PATCH /api/v1/cleanup/policies/{id}",
      method: "PATCH",
      path: () => `/api/v1/cleanup/policies/${ids.policy}`,
      params: () => ({ id: ids.policy }),
      route: policyRoute.PATCH,
      schema: updatePolicyRequest,
      auth: admin,
    },
    {
      name: "POST /api/v1/users",
      method: "POST",
      path: () => "/api/v1/users",
      route: usersRoute.POST,
      schema: createUserRequest,
      auth: admin,
    },
    {
      name: "PATCH /api/v1/users/{id}",
      method: "PATCH",
      path: () => `/api/v1/users/${p.viewer.id}`,
      params: () => ({ id: p.viewer.id }),
      route: userRoute.PATCH,
      schema: updateUserRequest,
      auth: admin,
    },
    {
      name: "POST /api/v1/tokens",
      method: "POST",
      path: () => "/api/v1/tokens",
      route: tokensRoute.POST,
      schema: createTokenRequest,
      auth: admin,
    },
  ];

  // Credentials that are not: each must be refused before the body is read.
  const badAuth = fc.oneof(
    fc.constantFrom("Bearer ", "Bearer sdt_", "Bearer swt_x", "Basic YWRtaW46YWRtaW4=", "Bearer a b", "bearer"),
    fc.stringMatching(/^[\x20-\x7e]{0,120}$/),
  );
  const maybeBadAuth = fc.option(badAuth, { freq: 8 });

  it.each(BODIES)("$name: hostile bodies and headers are refused with a 4xx, nothing written", async (e) => {
    const db = t.current.db;
    const before = await rowCounts(db);
    await fc.assert(
      fc.asyncProperty(hostileBody(e.schema), maybeBadAuth, async (input: HostileBody, auth) => {
        const headers = { ...input.headers, ...e.auth(), ...(auth === null ? {} : { authorization: auth }) };
        const request = new Request(`${BASE}${e.path()}`, { method: e.method, headers, body: Buffer.from(input.body) });
        expectRefusal(e.name, input.label, await call(e.route, request, e.params?.()));
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(await rowCounts(db)).toEqual(before);
  });

  it("names the field of a report that holds a NUL, a lone surrogate or bytes that are not UTF-8, and stores nothing", async () => {
    const db = t.current.db;
    const before = await rowCounts(db);
    const good = makeReport({ id: ws.id, owner: "mallory" }, new Date(Date.now() - 60_000).toISOString(), [
      {
        key: "claude-code:data",
        agent: "claude-code",
        bytes: MiB,
        path: ".claude",
        largest: [session("projects/a.jsonl", 10)],
      },
    ]);
    const post = (body: Uint8Array | string) =>
      call(
        reportsRoute.POST,
        new Request(`${BASE}/api/v1/reports`, {
          method: "POST",
          headers: { ...workspace(), "content-type": "application/json" },
          body: typeof body === "string" ? body : Buffer.from(body),
        }),
      );
    const fields: [string, (r: typeof good, v: string) => void][] = [
      ["workspace.name", (r, v) => (r.workspace.name = v)],
      ["workspace.owner", (r, v) => (r.workspace.owner = v)],
      ["reporter.version", (r, v) => (r.reporter.version = v)],
      ["roots[0].path", (r, v) => (r.roots[0].path = v)],
      ["roots[0].largest[0].path", (r, v) => (r.roots[0].largest![0].path = v)],
    ];
    for (const [field, set] of fields) {
      for (const poison of ["a\u0000b", "a\ud800b", "\udc00"]) {
        const r = structuredClone(good);
        set(r, poison);
        const res = await post(JSON.stringify(r));
        expect(res.status, `${field} ${JSON.stringify(poison)}`).toBe(422);
        expect(res.body).toMatchObject({ error: { code: "invalid_text", details: { issues: [{ path: field }] } } });
        expect((res.body as { error: { message: string } }).error.message).toContain(field);
      }
      // bytes that are not UTF-8 (an ISO-8859-1 é) where the field's text is
      const r = structuredClone(good);
      set(r, "caf\u0001");
      const text = JSON.stringify(r).replace("caf\\u0001", "caf\u00e9");
      const bytes = Buffer.from(text, "latin1");
      const res = await post(bytes);
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ error: { code: "invalid_utf8", details: { path: field } } });
    }
    expect(await rowCounts(db)).toEqual(before);
    // the same report, clean, is stored: the refusals were about the text alone
    expect((await post(JSON.stringify(good))).status).toBe(200);
  });

  it("refuses custom targets and report paths that try to leave their root, and stores nothing", async () => {
    const db = t.current.db;
    const before = await rowCounts(db);
    for (const glob of ["../*", "/etc/*", "a/../../b", "**/../*", "debug/\u0000x", ".."]) {
      const res = await call(
        runsRoute.POST,
        new Request(`${BASE}/api/v1/cleanup/runs`, {
          method: "POST",
          headers: { ...admin(), "content-type": "application/json" },
          body: JSON.stringify({
            custom: { rootKey: "claude-code:data", glob, unit: "file" },
            params: { olderThanDays: 7 },
            scope: { all: true },
          }),
        }),
      );
      expect(res.status, `${glob}: ${res.text}`).toBe(422);
    }
    for (const bad of ["../../etc/passwd", "/etc/passwd", "a/../../b", "C:\\x", "a\u0000b"]) {
      const r = makeReport({ id: ws.id, owner: "mallory" }, new Date(Date.now() - 60_000).toISOString(), [
        { key: "claude-code:data", agent: "claude-code", bytes: MiB, path: ".claude", largest: [session(bad, 10)] },
      ]);
      const res = await call(
        reportsRoute.POST,
        new Request(`${BASE}/api/v1/reports`, {
          method: "POST",
          headers: { ...workspace(), "content-type": "application/json" },
          body: JSON.stringify(r),
        }),
      );
      expect(res.status, `${bad}: ${res.text}`).toBe(422);
    }
    expect(await rowCounts(db)).toEqual(before);
  });

  const QUERIES: QueryEndpoint[] = [
    {
      name: "GET /api/v1/export/usage.csv",
      path: "/api/v1/export/usage.csv",
      route: usageCsvRoute.GET,
      schema: usageExportQuery,
      lists: true,
    },
    {
      name: "GET /api/v1/export/findings.csv",
      path: "/api/v1/export/findings.csv",
      route: findingsCsvRoute.GET,
      schema: findingsFilterQuery,
    },
    {
      name: "GET /api/v1/export/workspaces.csv",
      path: "/api/v1/export/workspaces.csv",
      route: workspacesCsvRoute.GET,
      schema: workspaceListQuery,
    },
    {
      name: "GET /api/v1/export/audit.csv",
      path: "/api/v1/export/audit.csv",
      route: auditCsvRoute.GET,
      schema: auditFilterQuery,
    },
  ];

  it.each(QUERIES)(
    "$name: hostile filters never answer 5xx or hang; the refused ones a 4xx; nothing written",
    async (e) => {
      const db = t.current.db;
      const before = await rowCounts(db);
      await fc.assert(
        fc.asyncProperty(hostileQuery(e.schema), async (query) => {
          const request = new Request(`${BASE}${e.path}?${query}`, { headers: admin() });
          const res = await call(e.route, request);
          count(e.name, res.status);
          const what = `${e.name}?${query} answered ${res.status}: ${res.text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          if (mustRefuse(e.schema, queryAsRead(new URL(request.url).searchParams, e.lists))) {
            expect(res.status, what).toBeGreaterThanOrEqual(400);
          }
          if (res.status >= 400)
            expect(typeof (res.body as { error?: { code?: string } })?.error?.code, what).toBe("string");
          else expect(res.text.length, what).toBeGreaterThan(0); // a CSV, its header row at least
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      // GETs never write (the export's own audit entry aside: counted, not an accident).
      const after = await rowCounts(db);
      const { ["public.audit_log"]: auditAfter, ...restAfter } = after;
      const { ["public.audit_log"]: auditBefore, ...restBefore } = before;
      expect(restAfter).toEqual(restBefore);
      expect(auditAfter - auditBefore).toBeLessThanOrEqual(tally.get(e.name)?.by["2xx"] ?? 0);
    },
  );
});
