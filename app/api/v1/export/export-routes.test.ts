// The export routes: the caller first (401 before anything else), bad parameters answer 422 in the error
// envelope before any row is read, a database that is down answers 503 instead of an empty file, and a
// download carries the CSV headers and leaves an audit entry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePrincipals } from "@/tests/support/auth";
import { resetConfigForTests } from "@/lib/config";
import { listAudit } from "@/lib/db/queries/audit";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { seedScenario, testNow } from "@/tests/support/reports";
import { GET as agentTable } from "./agents/[agent]/[table]/route";
import { GET as agentWorkspaces } from "./agents/[agent]/route";
import { GET as findings } from "./findings.csv/route";
import { GET as fleetTable } from "./fleet/[table]/route";
import { GET as fleet } from "./fleet.csv/route";
import { GET as usage } from "./usage.csv/route";
import { GET as workspaceTable } from "./workspaces/[id]/[table]/route";
import { GET as workspaces } from "./workspaces.csv/route";

let auth: Record<string, string> = {};
const req = (path: string, headers: Record<string, string> = auth) =>
  new Request(`http://localhost/api/v1/export/${path}`, { headers });
const ctx = <T>(params: T) => ({ params: Promise.resolve(params) });
const globalDb = globalThis as unknown as { __storageDb?: unknown };

describe("export routes without a database", () => {
  const saved = process.env.DATABASE_URL;
  beforeAll(() => {
    globalDb.__storageDb = undefined;
    // Nothing listens on port 1: every database call fails.
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:1/none";
    resetConfigForTests();
  });
  afterAll(() => {
    globalDb.__storageDb = undefined;
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    resetConfigForTests();
  });

  it("answers 503 when the database is down, never an empty file", async () => {
    // With credentials that need the database to check: the outage shows, not an empty file.
    const res = await usage(req("usage.csv", { authorization: "Bearer sdt_anything" }), ctx({}));
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe("database_unavailable");
  });
});

describeEachDatabase("export routes", (t) => {
  beforeAll(async () => {
    await seedScenario(t.current.db, testNow());
    serveRoutesFrom(t.current);
    const p = await makePrincipals(t.current, "export");
    auth = { authorization: `Bearer ${p.viewerToken}` };
  });
  afterAll(() => {
    globalDb.__storageDb = undefined;
    auth = {};
  });

  it("asks who is calling before it reads a parameter, and audits each download", async () => {
    const anonymous = await usage(req("usage.csv?range=bogus", {}), ctx({}));
    expect(anonymous.status).toBe(401);
    await (await usage(req("usage.csv?range=7d&owner=alice"), ctx({}))).text();
    const [entry] = (await listAudit(t.current.db, { action: "export.downloaded" }, { limit: 10 })).entries;
    expect(entry).toMatchObject({
      actorType: "token",
      target: expect.stringMatching(/^usage-.*\.csv$/),
      details: { query: { range: "7d", owner: "alice" } },
    });
  });

  it("rejects bad parameters with 422 in the error envelope before reading anything", async () => {
    const many = Array.from({ length: 501 }, (_, i) => `w${i}`).join(",");
    for (const res of [
      await usage(req("usage.csv?range=1y"), ctx({})),
      await usage(req("usage.csv?range=custom"), ctx({})),
      await usage(req("usage.csv?granularity=hourly"), ctx({})),
      await usage(req(`usage.csv?workspace=${many}`), ctx({})),
      await usage(req("usage.csv?owner=a&owner=b"), ctx({})),
      await workspaces(req("workspaces.csv?sort=bogus"), ctx({})),
      await findings(req("findings.csv?severity=urgent"), ctx({})),
      await fleet(req("fleet.csv?range=custom&from=2026-02-01&to=2026-01-01"), ctx({})),
      await fleetTable(req("fleet/silent.csv?range=2w"), ctx({ table: "silent.csv" })),
      await agentTable(req("agents/codex/series.csv?range=2w"), ctx({ agent: "codex", table: "series.csv" })),
      await workspaceTable(req("workspaces/x/roots.csv?range=2w"), ctx({ id: "x", table: "roots.csv" })),
    ]) {
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect((await res.json()).error).toMatchObject({
        code: "invalid",
        message: expect.stringMatching(/query parameters/),
      });
    }
  });

  it("answers 404 for an export name that does not exist", async () => {
    for (const res of [
      await fleetTable(req("fleet/everything.csv"), ctx({ table: "everything.csv" })),
      await agentTable(req("agents/codex/workspaces.csv"), ctx({ agent: "codex", table: "workspaces.csv" })),
      await workspaceTable(req("workspaces/x/roots.json"), ctx({ id: "x", table: "roots.json" })),
      await agentWorkspaces(req("agents/codex"), ctx({ agent: "codex" })),
    ]) {
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
  });

  it("streams CSV downloads with a descriptive file name and no caching", async () => {
    const res = await usage(req("usage.csv?range=custom&from=2026-01-01&to=2026-01-31&workspace=ws-a,ws-b"), ctx({}));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="usage-2026-01-01-2026-01-31.csv"');
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe(
      "time,day,workspace_id,workspace,owner,template,organization,groups,agent,kind,root,path,bytes,apparent_bytes,files\r\n",
    );
    for (const res of [
      await usage(req("usage.csv?granularity=report&workspace=ws-a&workspace=ws-b"), ctx({})),
      await workspaces(req("workspaces.csv?sort=name&dir=asc&page=3&pageSize=1"), ctx({})),
      await findings(req("findings.csv?severity=warning"), ctx({})),
      await fleet(req("fleet.csv?range=7d"), ctx({})),
      await fleetTable(req("fleet/volumes-at-risk.csv"), ctx({ table: "volumes-at-risk.csv" })),
      await agentWorkspaces(req("agents/claude-code.csv"), ctx({ agent: "claude-code.csv" })),
      await agentTable(req("agents/claude-code/kinds.csv"), ctx({ agent: "claude-code", table: "kinds.csv" })),
      await workspaceTable(req("workspaces/ws-a/reports.csv"), ctx({ id: "ws-a", table: "reports.csv" })),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect((await res.text()).split("\r\n").length, res.headers.get("content-disposition")!).toBeGreaterThan(2);
    }
    // All pages, whatever page the table was on.
    const all = await (await workspaces(req("workspaces.csv?page=3&pageSize=1"), ctx({}))).text();
    expect(all.split("\r\n").length - 2).toBe(4);
  });
});
