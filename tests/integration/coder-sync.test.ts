// The workspace sync against the Coder stand-in, on both databases: it pages through Coder's list (rows Coder
// leaves out of a page for want of template read are counted but not shown, a whole page can be empty), Coder's
// names win, a workspace Coder no longer has leaves the fleet's totals and chart from its deletion day (when its
// delete build finished) with its jobs cancelled, a workspace Coder will not show (403: its template is not
// readable; 400: not a Coder id) is kept and named with the reason, the new findings and the coverage come from
// Coder's view, a rate limit is waited out within the sync's schedule, and an outage leaves the pages working with
// the sync's error shown. The route is admin only.
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { UNVERIFIED_REASONS } from "@/lib/coder/unverified";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as syncRoute from "@/app/api/v1/coder/sync/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
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
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { dayAgo, enroll, MiB, at, seedScenario, send, testNow, WS_A, WS_D } from "@/tests/support/reports";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { coderWorkspace, coderWorkspaces, type CoderWorkspaces } from "@/tests/support/coder-standin/workspaces";
import { processMetrics } from "@/lib/metrics/process";
import { coderClient } from "@/lib/coder/client";
import { syncFromCoder } from "@/lib/services/coder-sync";

const TOKEN = "coder-sync-token";
const uuid = (n: number) => `6f1c2d3e-0000-4000-8000-${String(n).padStart(12, "0")}`;
const WS_E = { id: "ws-e", name: "echo", owner: "erin", template: "minimal" };
const WS_F = { id: "ws-f", name: "foxtrot", owner: "frank", template: "minimal" };
/** Coder's workspaces that never report. */
const ONLY_IN_CODER = [1, 2, 3, 4, 5].map(uuid);
/** Deleted in Coder (its delete build finished two hours before the sync), and one Coder never had (404). */
const DELETED = { id: uuid(10), name: "delta-2", owner: "dave", template: "ai-dev" };
const GONE = { id: uuid(11), name: "gone", owner: "gus" };
/** In Coder, on a template the sync's token cannot read: left out of the list's page, 403 by id. Eve's. */
const SECRET = { id: uuid(20), name: "eve-1", owner: "eve", template: "secret" };
const SECRET_TWINS = [uuid(21), uuid(22)];
/** A reporter with a hand-set workspace id: Coder answers 400 Invalid UUID for it. */
const HAND_SET = { id: "build-box-7", name: "build-box", owner: "hal" };
/** What the list shows: the six above and Coder's own five (14 counted, three hidden). */
const READABLE = 11;

let coder: CoderStandIn;
const now = testNow();
const daysFromNow = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString();

function deployment(): CoderWorkspaces {
  const secret = (id: string, name: string) =>
    coderWorkspace({ id, name, owner_name: "eve", template_id: "tpl-secret", template_name: "secret" });
  const api = coderWorkspaces({
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
      coderWorkspace({ id: WS_D.id, name: "delta", owner_name: "dave", last_used_at: daysFromNow(-1) }),
      coderWorkspace({
        id: WS_E.id,
        name: "echo",
        owner_name: "erin",
        latest_build: { status: "stopped", transition: "stop" },
        last_used_at: daysFromNow(-6),
      }),
      coderWorkspace({ id: WS_F.id, name: "foxtrot", owner_name: "frank", last_used_at: daysFromNow(-1) }),
      ...ONLY_IN_CODER.map((id) => coderWorkspace({ id, name: id, owner_name: "zed", last_used_at: daysFromNow(-1) })),
      coderWorkspace({ id: DELETED.id, name: DELETED.name, owner_name: DELETED.owner }),
      // Running, owned by eve: the list's second page of three is these, and Coder leaves all of them out.
      secret(SECRET.id, SECRET.name),
      ...SECRET_TWINS.map((id, i) => secret(id, `eve-${i + 2}`)),
    ],
  });
  api.unreadableTemplates.add("tpl-secret");
  return api;
}

describeEachDatabase("workspace sync from Coder", (t) => {
  let api: CoderWorkspaces;
  let p: Principals;
  let purgeJob = "";
  const deletedBuildDone = new Date(now.getTime() - 2 * 3600_000).toISOString();
  const fast = (o: { retries?: number; timeoutMs?: number; deadline?: number } = {}) =>
    coderClient({ url: coder.url, token: TOKEN, backoffMs: 5, retries: 2, deadline: Date.now() + 10_000, ...o });
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
    // ws-d reports again today: it runs in Coder, and is not silent.
    await send(db, WS_D, at(now, 0), [{ key: "goose:data", agent: "goose", bytes: 60 * MiB }]);
    await enroll(db, DELETED);
    await send(db, DELETED, at(now, 19), [{ key: "opencode:data", agent: "opencode", bytes: 60 * MiB }]);
    for (const ws of [SECRET, HAND_SET]) {
      await enroll(db, ws);
      await send(db, ws, at(now, 0), [{ key: "codex:data", agent: "codex", bytes: 2 * MiB }]);
    }
    // Known here, never in Coder (a 404 there): deleted as well.
    await enroll(db, GONE);
    const run = await queueTrashPurge(db, [DELETED.id], TEST_WHO);
    [{ id: purgeJob }] = await db.select({ id: cleanupJobs.id }).from(cleanupJobs).where(eq(cleanupJobs.runId, run.id));
    p = await makePrincipals(t.current, "sync");
  }, 60_000);
  afterAll(() => coder?.close());

  it("pages through Coder's list, looks up what it no longer lists, and keeps Coder's view", async () => {
    api.remove(DELETED.id, deletedBuildDone);
    const before = await getFleetOverview(t.current.db, { now });
    const out = await sync();
    expect(out.error).toBeNull();
    expect(out).toMatchObject({ listed: READABLE, added: 5, updated: 6, deleted: 2, jobsCancelled: 1 });
    // The second page is empty (eve's three are hidden) and the list goes on to the count: by the page size.
    const lists = api.requests.filter((r) => r.startsWith("/api/v2/workspaces?"));
    expect(lists.map((r) => new URL(r, coder.url).searchParams.get("offset"))).toEqual(["0", "3", "6", "9", "12"]);
    const synced = await t.current.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(isNotNull(workspaces.coderSyncedAt), isNull(workspaces.deletedAt)));
    expect(synced.map((r) => r.id).sort()).toEqual(
      [WS_A.id, "ws-b", "ws-c", WS_D.id, WS_E.id, WS_F.id, ...ONLY_IN_CODER].sort(),
    );
    expect(api.requests).toContain(`/api/v2/workspaces/${DELETED.id}?include_deleted=true`);
    expect(api.requests).toContain(`/api/v2/workspaces/${GONE.id}?include_deleted=true`);
    // Deleted when its delete build finished, not when the sync saw it.
    const [gone] = await t.current.db.select().from(workspaces).where(eq(workspaces.id, DELETED.id));
    expect(gone.deletedAt?.toISOString()).toBe(deletedBuildDone);

    const [a] = await t.current.db.select().from(workspaces).where(eq(workspaces.id, WS_A.id));
    expect(a).toMatchObject({ name: "alpha-2", owner: "alice", template: "docker", coderStatus: "running" });
    const [b] = await t.current.db.select().from(workspaces).where(eq(workspaces.id, "ws-b"));
    expect(b.coderDormantAt?.toISOString()).toBe(daysFromNow(-10));
    expect(b.coderDeletingAt?.toISOString()).toBe(daysFromNow(5));

    // The deleted one (60 MiB of OpenCode) leaves the totals and today's level of the chart, not yesterday's.
    const after = await getFleetOverview(t.current.db, { now });
    expect(before.total.bytes - after.total.bytes).toBe(60 * MiB);
    expect(after.total.workspaces).toBe(before.total.workspaces - 2 + 5);
    const level = (o: typeof after, day: string) => o.series.points.find((x) => x.day === day)!.total;
    expect(level(before, dayAgo(now, 0)) - level(after, dayAgo(now, 0))).toBe(60 * MiB);
    expect(level(after, dayAgo(now, 1))).toBe(level(before, dayAgo(now, 1)));
    expect(after.topAgents.map((x) => x.agent)).not.toContain("opencode");
    expect(after.coderSync).toMatchObject({ error: null, listed: READABLE, deleted: 2 });
  });

  it("keeps a workspace Coder answers 403 or 400 for, and names it with the reason", async () => {
    const state = await getSyncState(t.current.db);
    expect(state?.unverifiedCount).toBe(2);
    expect(state?.unverified).toEqual([
      { id: SECRET.id, name: SECRET.name, owner: "eve", reason: "not_readable" },
      { id: HAND_SET.id, name: HAND_SET.name, owner: "hal", reason: "not_coder_id" },
    ]);
    for (const ws of [SECRET, HAND_SET]) {
      const [row] = await t.current.db.select().from(workspaces).where(eq(workspaces.id, ws.id));
      expect(row).toMatchObject({ deletedAt: null, coderStatus: null, name: ws.name });
    }
    expect(api.requests).toContain(`/api/v2/workspaces/${SECRET.id}?include_deleted=true`);
    expect(api.requests).toContain(`/api/v2/workspaces/${HAND_SET.id}?include_deleted=true`);
    // What the fleet page's coverage line lists, with Coder's reason in words.
    const overview = await getFleetOverview(t.current.db, { now });
    expect(overview.coderSync?.unverified.map((w) => UNVERIFIED_REASONS[w.reason])).toEqual([
      expect.stringMatching(/^Coder answers 403: .*template/),
      expect.stringMatching(/^Coder answers 400: .*not a Coder workspace id/),
    ]);
  });

  it("cancels a deleted workspace's jobs with the reason, and refuses cleanup there", async () => {
    const [job] = await t.current.db.select().from(cleanupJobs).where(eq(cleanupJobs.id, purgeJob));
    expect(job).toMatchObject({ state: "cancelled", cancelReason: "The workspace was deleted in Coder." });
    const run = createRun(
      t.current.db,
      { recipe: "codex-rollouts", params: { olderThanDays: 1 }, scope: { workspaceIds: [DELETED.id] } } as never,
      TEST_WHO,
    );
    await expect(run).rejects.toMatchObject({ status: 409, code: "workspace_deleted" });
    await expect(queueTrashPurge(t.current.db, [DELETED.id], TEST_WHO)).rejects.toMatchObject({ status: 409 });
  });

  it("lists deleted workspaces only under their filter, and filters by Coder status and dormancy", async () => {
    const ids = async (q: Parameters<typeof listWorkspaces>[2]) =>
      (await listWorkspaces(t.current.db, FLEET, { ...q, pageSize: 200, now })).rows.map((r) => r.id).sort();
    expect(await ids({})).not.toContain(DELETED.id);
    expect(await ids({ status: "deleted" })).toEqual([DELETED.id, GONE.id].sort());
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
    // ws-e is stopped in Coder (expected); ws-f runs and is silent (its reporter is broken); one is deleted.
    expect(of("silent-workspace").map((f) => f.workspace.id)).toEqual([WS_F.id]);
    const overview = await getFleetOverview(t.current.db, { now });
    expect(overview.silent).toMatchObject({ count: 1, expected: 1 });
    expect(
      of("volume-full")
        .concat(of("root-oversize"))
        .map((f) => f.workspace.id),
    ).not.toContain(DELETED.id);
  });

  it("counts the coverage of Coder's workspaces", async () => {
    // 11 in Coder (deleted ones left out), of which ws-a, ws-b, ws-d, ws-e and ws-f report; ws-c and Coder's own
    // five don't.
    expect(await getCoverage(t.current.db)).toEqual({ coder: 11, reporting: 5, notReporting: 6 });
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
    expect(overview.coverage?.coder).toBe(11);
    expect((await getStorageSettings(t.current.db)).coderSync?.error).toBe("no answer within 50 ms");
  });

  it("waits out Coder's rate limit as Retry-After or X-Ratelimit-Reset says, within the sync's schedule", async () => {
    api.rateLimitNext(1, { "retry-after": "1" });
    const first = await sync();
    expect(first).toMatchObject({ error: null, listed: READABLE });
    api.rateLimitNext(1, { "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 1) });
    expect(await sync()).toMatchObject({ error: null, listed: READABLE });
    // A wait past the next tick is not waited: the sync fails with the reason and the next one tries again.
    const before = api.requests.length;
    api.rateLimitNext(1, { "retry-after": "3600" });
    const limited = await sync({ deadline: Date.now() + 60_000 });
    expect(limited.error).toMatch(/^429 rate limited by Coder for 3600 s, which ends after this sync's schedule/);
    expect(api.requests.length).toBe(before + 1);
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
      expect(body).toMatchObject({ listed: READABLE, added: 0, deleted: 0, error: null });
    } finally {
      delete process.env.CODER_URL;
      delete process.env.CODER_SESSION_TOKEN;
      resetConfigForTests();
    }
  });
});
