// The workspace sync against the Coder stand-in, on both databases: it pages through Coder's list, Coder's names
// win, a workspace Coder no longer has leaves the fleet's totals and chart from its deletion day with its jobs
// cancelled, the new findings and the coverage come from Coder's view, and an outage leaves the pages working
// with the sync's error shown. The route is admin only.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as syncRoute from "@/app/api/v1/coder/sync/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/lib/auth/testing";
import { resetConfigForTests } from "@/lib/config";
import { createRun, queueTrashPurge } from "@/lib/services/cleanup-runs";
import { getSyncState } from "@/lib/db/queries/coder-sync";
import { getCoverage } from "@/lib/db/queries/coverage";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { getStorageSettings } from "@/lib/db/queries/storage";
import { getRules, listFindings } from "@/lib/db/queries/findings";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { cleanupJobs, workspaces } from "@/lib/db/schema";
import { FLEET } from "@/lib/db/scope";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/lib/db/testing";
import { dayAgo, enroll, MiB, at, seedScenario, send, testNow, WS_A, WS_D } from "@/tests/support/reports";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { coderWorkspace, coderWorkspaces, type CoderWorkspaces } from "@/tests/support/coder-standin/workspaces";
import { processMetrics } from "@/lib/metrics/process";
import { coderClient } from "@/lib/coder/client";
import { syncFromCoder } from "@/lib/coder/sync";

const TOKEN = "coder-sync-token";
const WS_E = { id: "ws-e", name: "echo", owner: "erin", template: "minimal" };
const WS_F = { id: "ws-f", name: "foxtrot", owner: "frank", template: "minimal" };
/** Coder's workspaces that never report: with the six above, four pages of three. */
const ONLY_IN_CODER = ["c-1", "c-2", "c-3", "c-4", "c-5"];

let coder: CoderStandIn;
const now = testNow();
const daysFromNow = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString();

function deployment(): CoderWorkspaces {
  return coderWorkspaces({
    tokens: [TOKEN],
    workspaces: [
      // Renamed in Coder: Coder's name wins over the reporter's "alpha". Unused for 45 days.
      coderWorkspace({ id: WS_A.id, name: "alpha-2", owner_name: "alice", last_used_at: daysFromNow(-45) }),
      coderWorkspace({
        id: "ws-b",
        name: "bravo",
        owner_name: "bob",
        latest_build: { status: "stopped", transition: "stop" },
        dormant_at: daysFromNow(-10),
        deleting_at: daysFromNow(5),
        last_used_at: daysFromNow(-40),
      }),
      coderWorkspace({ id: "ws-c", name: "charlie", owner_name: "carol", last_used_at: daysFromNow(-1) }),
      coderWorkspace({ id: WS_D.id, name: "delta", owner_name: "dave" }),
      coderWorkspace({
        id: WS_E.id,
        name: "echo",
        owner_name: "erin",
        latest_build: { status: "stopped", transition: "stop" },
        last_used_at: daysFromNow(-6),
      }),
      coderWorkspace({ id: WS_F.id, name: "foxtrot", owner_name: "frank", last_used_at: daysFromNow(-1) }),
      ...ONLY_IN_CODER.map((id) => coderWorkspace({ id, name: id, owner_name: "zed", last_used_at: daysFromNow(-1) })),
    ],
  });
}

describeEachDatabase("workspace sync from Coder", (t) => {
  let api: CoderWorkspaces;
  let p: Principals;
  let purgeJob = "";
  const fast = (o: { retries?: number; timeoutMs?: number } = {}) =>
    coderClient({ url: coder.url, token: TOKEN, backoffMs: 5, retries: 2, ...o });
  const sync = (o: Parameters<typeof fast>[0] = {}) =>
    syncFromCoder(t.current.db, { url: coder.url, token: TOKEN }, { client: fast(o), pageSize: 3, now: () => now });

  beforeAll(async () => {
    api = deployment();
    coder = await startCoderStandIn([api.handler]);
    serveRoutesFrom(t.current);
    const db = t.current.db;
    await seedScenario(db, now);
    for (const ws of [WS_E, WS_F]) {
      await enroll(db, ws);
      await send(db, ws, at(now, 5), [{ key: "codex:data", agent: "codex", bytes: 30 * MiB }]);
    }
    // Known here, never in Coder (a 404 there): deleted as well.
    await enroll(db, { id: "ws-gone", name: "gone", owner: "gus" });
    const run = await queueTrashPurge(db, [WS_D.id], TEST_WHO);
    [{ id: purgeJob }] = await db.select({ id: cleanupJobs.id }).from(cleanupJobs).where(eq(cleanupJobs.runId, run.id));
    p = await makePrincipals(t.current, "sync");
  }, 60_000);
  afterAll(() => coder?.close());

  it("pages through Coder's list, looks up what it no longer lists, and keeps Coder's view", async () => {
    api.remove(WS_D.id);
    const before = await getFleetOverview(t.current.db, { now });
    const out = await sync();
    expect(out.error).toBeNull();
    expect(out).toMatchObject({ listed: 10, added: 5, updated: 5, deleted: 2, jobsCancelled: 1 });
    const lists = api.requests.filter((r) => r.startsWith("/api/v2/workspaces?"));
    expect(lists.map((r) => new URL(r, coder.url).searchParams.get("offset"))).toEqual(["0", "3", "6", "9"]);
    expect(api.requests).toContain(`/api/v2/workspaces/${WS_D.id}?include_deleted=true`);
    expect(api.requests).toContain("/api/v2/workspaces/ws-gone?include_deleted=true");

    const [a] = await t.current.db.select().from(workspaces).where(eq(workspaces.id, WS_A.id));
    expect(a).toMatchObject({ name: "alpha-2", owner: "alice", template: "docker", coderStatus: "running" });
    const [b] = await t.current.db.select().from(workspaces).where(eq(workspaces.id, "ws-b"));
    expect(b.coderDormantAt?.toISOString()).toBe(daysFromNow(-10));
    expect(b.coderDeletingAt?.toISOString()).toBe(daysFromNow(5));

    // ws-d (60 MiB of goose) leaves the totals and today's level of the chart, not yesterday's.
    const after = await getFleetOverview(t.current.db, { now });
    expect(before.total.bytes - after.total.bytes).toBe(60 * MiB);
    expect(after.total.workspaces).toBe(before.total.workspaces - 2 + 5);
    const level = (o: typeof after, day: string) => o.series.points.find((x) => x.day === day)!.total;
    expect(level(before, dayAgo(now, 0)) - level(after, dayAgo(now, 0))).toBe(60 * MiB);
    expect(level(after, dayAgo(now, 1))).toBe(level(before, dayAgo(now, 1)));
    expect(after.topAgents.map((x) => x.agent)).not.toContain("goose");
    expect(after.coderSync).toMatchObject({ error: null, listed: 10, deleted: 2 });
  });

  it("cancels a deleted workspace's jobs with the reason, and refuses cleanup there", async () => {
    const [job] = await t.current.db.select().from(cleanupJobs).where(eq(cleanupJobs.id, purgeJob));
    expect(job).toMatchObject({ state: "cancelled", cancelReason: "The workspace was deleted in Coder." });
    const run = createRun(
      t.current.db,
      { recipe: "codex-rollouts", params: { olderThanDays: 1 }, scope: { workspaceIds: [WS_D.id] } } as never,
      TEST_WHO,
    );
    await expect(run).rejects.toMatchObject({ status: 409, code: "workspace_deleted" });
    await expect(queueTrashPurge(t.current.db, [WS_D.id], TEST_WHO)).rejects.toMatchObject({ status: 409 });
  });

  it("lists deleted workspaces only under their filter, and filters by Coder status and dormancy", async () => {
    const ids = async (q: Parameters<typeof listWorkspaces>[2]) =>
      (await listWorkspaces(t.current.db, FLEET, { ...q, pageSize: 200, now })).rows.map((r) => r.id).sort();
    expect(await ids({})).not.toContain(WS_D.id);
    expect(await ids({ status: "deleted" })).toEqual([WS_D.id, "ws-gone"]);
    expect(await ids({ dormant: "true" })).toEqual(["ws-b"]);
    expect(await ids({ status: "stopped" })).toEqual(["ws-b", WS_E.id]);
    expect(await ids({ reporting: "no" })).toEqual([...ONLY_IN_CODER, "ws-c"].sort());
    const row = (await listWorkspaces(t.current.db, FLEET, { q: "alpha", now })).rows[0];
    expect(row.coder).toMatchObject({ status: "running", deletedAt: null });
  });

  it("finds storage of dormant and unused workspaces and the auto-deletion date, and splits silence", async () => {
    const rules = await getRules(t.current.db);
    const list = await listFindings(t.current.db, FLEET, { now, rules, limit: 200 });
    const of = (rule: string) => list.findings.filter((f) => f.ruleId === rule);
    expect(of("dormant-storage").map((f) => f.workspace.id)).toEqual(["ws-b"]);
    expect(of("dormant-storage")[0].message).toMatch(
      /^Dormant in Coder for 10 days, and still holds 50\d(\.\d)? MiB\.$/,
    );
    expect(of("unused-storage").map((f) => f.workspace.id)).toEqual([WS_A.id]);
    expect(of("unused-storage")[0].message).toMatch(/Not used in Coder for 45 days, and holds 1\.5\d? GiB/);
    expect(of("auto-deletion").map((f) => f.workspace.id)).toEqual(["ws-b"]);
    expect(of("auto-deletion")[0].message).toBe(
      `Coder deletes this workspace on ${daysFromNow(5).slice(0, 10)} (in 5.0 days).`,
    );
    // ws-e is stopped in Coder (expected); ws-f runs and is silent (its reporter is broken); ws-d is deleted.
    expect(of("silent-workspace").map((f) => f.workspace.id)).toEqual([WS_F.id]);
    const overview = await getFleetOverview(t.current.db, { now });
    expect(overview.silent).toMatchObject({ count: 1, expected: 1 });
    expect(
      of("volume-full")
        .concat(of("root-oversize"))
        .map((f) => f.workspace.id),
    ).not.toContain(WS_D.id);
  });

  it("counts the coverage of Coder's workspaces", async () => {
    // 10 in Coder (deleted ones left out), of which ws-a, ws-b, ws-e and ws-f report; ws-c and c-1..c-5 don't.
    expect(await getCoverage(t.current.db)).toEqual({ coder: 10, reporting: 4, notReporting: 6 });
    // Those that never reported are the coverage line's; the overview's largest workspaces are measured ones.
    const top = (await getFleetOverview(t.current.db, { now, limit: 50 })).topWorkspaces.map((w) => w.id);
    expect(top.length).toBeGreaterThan(0);
    expect(top.filter((id) => ONLY_IN_CODER.includes(id))).toEqual([]);
  });

  it("retries a failed request, and keeps a Coder outage as the last sync's error without failing a page", async () => {
    const { syncErrors, syncLastSuccess } = processMetrics();
    const errorsBefore = (await syncErrors.get()).values[0]?.value ?? 0;
    api.failNext(503, 1);
    expect((await sync()).error).toBeNull();
    const ok = await getSyncState(t.current.db);
    // /metrics: a sync that went through sets the last success, a failed one counts an error.
    expect((await syncLastSuccess.get()).values[0]?.value).toBe(new Date(ok!.succeededAt!).getTime() / 1000);

    api.failNext(503, 100);
    const down = await sync({ retries: 1 });
    expect(down.error).toMatch(/^503 An internal error occurred/);
    api.failNext(503, 0);
    api.delayMs(300);
    const slow = await sync({ retries: 0, timeoutMs: 50 });
    api.delayMs(0);
    expect(slow.error).toBe("no answer within 50 ms");
    expect((await syncErrors.get()).values[0]?.value).toBe(errorsBefore + 2);
    const state = await getSyncState(t.current.db);
    expect(state).toMatchObject({ error: "no answer within 50 ms", succeededAt: ok!.succeededAt });
    // Nothing was changed by the failed syncs, and the pages answer with the error to show.
    const overview = await getFleetOverview(t.current.db, { now });
    expect(overview.coderSync?.error).toBe("no answer within 50 ms");
    expect(overview.coverage?.coder).toBe(10);
    expect((await getStorageSettings(t.current.db)).coderSync?.error).toBe("no answer within 50 ms");
  });

  it("runs on demand for admins only (viewers 403, anonymous 401), answering with the counts", async () => {
    const call = (headers: Record<string, string>) =>
      syncRoute.POST(new Request(`${BASE}/api/v1/coder/sync`, { method: "POST", headers }), ctx({}));
    expect((await call({})).status).toBe(401);
    expect((await call({ cookie: p.viewer.cookie })).status).toBe(403);
    const unset = await call({ cookie: p.admin.cookie });
    expect(unset.status).toBe(409);
    process.env.CODER_URL = coder.url;
    process.env.CODER_SESSION_TOKEN = TOKEN;
    resetConfigForTests();
    try {
      const res = await call({ cookie: p.admin.cookie });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ listed: 10, added: 0, deleted: 0, error: null });
    } finally {
      delete process.env.CODER_URL;
      delete process.env.CODER_SESSION_TOKEN;
      resetConfigForTests();
    }
  });
});
