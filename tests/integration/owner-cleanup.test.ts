// Owners free their own space (My storage), on both databases: a member previews and runs an owner-runnable
// recipe on their own workspace (to the trash, bound to their preview, audited under their name), restores it,
// keeps a path; every refusal changes nothing, and another's workspace answers 404 as an unknown one.
import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as adminKeepRoute from "@/app/api/v1/cleanup/keeps/[id]/route";
import * as adminKeepsRoute from "@/app/api/v1/cleanup/keeps/route";
import * as adminPreviewRoute from "@/app/api/v1/cleanup/preview/route";
import * as ownerRecipesRoute from "@/app/api/v1/cleanup/owner-recipes/route";
import * as previewRoute from "@/app/api/v1/me/cleanup/preview/route";
import * as restoreRoute from "@/app/api/v1/me/cleanup/jobs/[id]/restore/route";
import * as runsRoute from "@/app/api/v1/me/cleanup/runs/route";
import * as keepRoute from "@/app/api/v1/me/keeps/[id]/route";
import * as keepsRoute from "@/app/api/v1/me/keeps/route";
import * as storageRoute from "@/app/api/v1/me/storage/route";
import { auditLog, cleanupJobs, cleanupKeeps, cleanupRuns, users } from "@/lib/db/schema";
import type { Who } from "@/lib/db/queries/audit";
import { keptPaths } from "@/lib/db/queries/owner-cleanup";
import { claimJobs, storeJobResult } from "@/lib/services/cleanup-jobs";
import { createRun } from "@/lib/services/cleanup-runs";
import { createUser } from "@/lib/services/users";
import { BASE, ctx, makePrincipals, signIn, type Principals } from "@/tests/support/auth";
import { claudeRoot, doneResult, FLEET_CLAUDE_RUN, seedWorkspace, usage, type Enrolled } from "@/tests/support/cleanup";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { MiB } from "@/tests/support/reports";

const ADMIN: Who = { actor: { type: "user", id: "u-admin", label: "admin@example.com" } };
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

describeEachDatabase("owners free their own space", (t) => {
  const ws: Record<string, Enrolled> = {};
  let p: Principals;
  let member = "";

  function call(
    module: Record<string, unknown>,
    method: string,
    url: string,
    body?: unknown,
    params = {},
    cookie = member,
  ) {
    const handler = module[method] as Handler;
    const headers: Record<string, string> = { cookie };
    if (body !== undefined) headers["content-type"] = "application/json";
    return handler(
      new Request(`${BASE}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      ctx(params),
    );
  }
  const preview = (workspaceId: string, recipe = "claude-code-sessions") =>
    call(previewRoute, "POST", "/api/v1/me/cleanup/preview", { workspaceId, recipe });
  const run = (workspaceId: string, confirmBytes: number, recipe = "claude-code-sessions") =>
    call(runsRoute, "POST", "/api/v1/me/cleanup/runs", { workspaceId, recipe, confirmBytes });
  const keep = (workspaceId: string, path: string, days: number) =>
    call(keepsRoute, "POST", "/api/v1/me/keeps", { workspaceId, path, days });
  const counts = async () => ({
    runs: (await t.current.db.select().from(cleanupRuns)).length,
    keeps: (await t.current.db.select().from(cleanupKeeps)).length,
  });

  beforeAll(async () => {
    const db = t.current.db;
    serveRoutesFrom(t.current);
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    const sessions = usage({ 1: [3, 30 * MiB], 30: [10, 100 * MiB], 60: [5, 200 * MiB] });
    ws.mine = await seedWorkspace(db, { id: "own-a", name: "alpha", owner: "alice" }, when, [claudeRoot(sessions)]);
    ws.other = await seedWorkspace(db, { id: "own-b", name: "bravo", owner: "bob" }, when, [claudeRoot(sessions)]);
    p = await makePrincipals(t.current, "owners");
    const user = await createUser(
      db,
      { email: "alice-o@example.com", password: "alice-owner-pw-1", role: "viewer" },
      TEST_WHO,
    );
    await db.update(users).set({ role: "member", coderUsername: "Alice" }).where(eq(users.id, user.id));
    member = await signIn("alice-o@example.com", "alice-owner-pw-1");
  });

  it("shows the member their own workspaces and what to run, nothing of another's", async () => {
    const res = await call(storageRoute, "GET", "/api/v1/me/storage");
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.owner).toBe("Alice");
    expect(body.workspaces.map((w: { id: string }) => w.id)).toEqual(["own-a"]);
    expect(body.offers).toContainEqual(
      expect.objectContaining({ recipe: "claude-code-sessions", workspaceId: "own-a", bytes: 200 * MiB, units: 5 }),
    );
    expect(JSON.stringify(body)).not.toContain("bravo");
  });

  it("answers 404 for another's workspace, as for an unknown one, and changes nothing", async () => {
    const before = await counts();
    for (const id of ["own-b", "no-such-workspace"]) {
      for (const res of [
        await preview(id),
        await run(id, 200 * MiB),
        await keep(id, ".claude-code-data/projects", 3),
      ]) {
        const text = await res.text();
        expect(res.status, text).toBe(404);
        expect(text).not.toContain("bravo");
        expect(text).not.toContain("bob");
      }
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses a recipe not marked for owners (422), a cache ever, and a run whose preview moved (409)", async () => {
    const before = await counts();
    const cache = await preview("own-a", "npm-cache");
    expect(cache.status).toBe(422);
    expect((await cache.json()).error.message).toMatch(/not marked "owners may run"/);
    const releases = await run("own-a", 0, "claude-code-versions");
    expect(releases.status).toBe(422);
    const moved = await run("own-a", 50 * MiB);
    expect(moved.status).toBe(409);
    const mark = await call(
      ownerRecipesRoute,
      "PUT",
      "/api/v1/cleanup/owner-recipes",
      { recipe: "npm-cache", ownersMayRun: true },
      {},
      p.admin.cookie,
    );
    expect(mark.status).toBe(422);
    const byMember = await call(ownerRecipesRoute, "PUT", "/api/v1/cleanup/owner-recipes", {
      recipe: "claude-code-versions",
      ownersMayRun: true,
    });
    expect(byMember.status).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it("runs the owner's preview to the trash without an admin, bound to it, audited under the owner", async () => {
    const seen = await (await preview("own-a")).json();
    expect(seen).toMatchObject({ bytes: 200 * MiB, units: 5, action: "trash", trashDays: 7 });
    const res = await run("own-a", seen.bytes);
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const [stored] = await t.current.db.select().from(cleanupRuns).where(eq(cleanupRuns.id, id));
    expect(stored).toMatchObject({
      byOwner: true,
      action: "trash",
      dryRun: false,
      createdByLabel: "alice-o@example.com",
    });
    const [entry] = await t.current.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "cleanup.run_created"), eq(auditLog.target, id)));
    expect(entry).toMatchObject({ actorLabel: "alice-o@example.com" });
    const [job] = await claimJobs(t.current.db, "own-a", new Date(), ["cleanup"]);
    expect(job.limits).toMatchObject({ maxUnits: 5, maxBytes: 200 * MiB });
    expect(job.action).toBe("trash");
    await storeJobResult(t.current.db, "own-a", job.id, doneResult(job.leaseToken, 180 * MiB, 4));
  });

  it("restores the owner's trash; another's job is 404; an expired trash is 409", async () => {
    const storage = await (await call(storageRoute, "GET", "/api/v1/me/storage")).json();
    expect(storage.trash).toHaveLength(1);
    const jobId = storage.trash[0].jobId;
    const res = await call(restoreRoute, "POST", `/api/v1/me/cleanup/jobs/${jobId}/restore`, undefined, { id: jobId });
    expect(res.status).toBe(201);
    // bob's job: a run an admin made on his workspace
    const [bobJob] = await t.current.db.select().from(cleanupJobs).where(eq(cleanupJobs.workspaceId, "own-b"));
    const bobs = bobJob?.id ?? "00000000-0000-4000-8000-000000000000";
    const other = await call(restoreRoute, "POST", `/api/v1/me/cleanup/jobs/${bobs}/restore`, undefined, { id: bobs });
    expect(other.status).toBe(404);
    await t.current.db
      .update(cleanupJobs)
      .set({ finishedAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(cleanupJobs.id, jobId));
    const expired = await call(restoreRoute, "POST", `/api/v1/me/cleanup/jobs/${jobId}/restore`, undefined, {
      id: jobId,
    });
    expect(expired.status).toBe(409);
    expect((await expired.json()).error.message).toMatch(/emptied/);
  });

  it("keeps a path for up to 14 days inside the workspace's roots, sends it with jobs, and lets an admin end it", async () => {
    const before = await counts();
    for (const [path, days, pattern] of [
      [".claude-code-data/projects", 15, /1 to 14 days/],
      [".ssh", 3, /outside this workspace's storage roots/],
      ["../etc", 3, /'\.\.'/],
      [".claude-code-data/*", 3, /characters/],
    ] as const) {
      const res = await keep("own-a", path, days);
      expect(res.status, path).toBe(422);
      expect((await res.json()).error.message).toMatch(pattern);
    }
    expect(await counts()).toEqual(before);
    const res = await keep("own-a", ".claude-code-data/projects/-work-app", 7);
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const seen = await (await preview("own-a")).json();
    expect(seen.kept.map((k: { path: string }) => k.path)).toEqual([".claude-code-data/projects/-work-app"]);
    const listed = await (
      await call(adminKeepsRoute, "GET", "/api/v1/cleanup/keeps", undefined, {}, p.admin.cookie)
    ).json();
    expect(listed.keeps).toContainEqual(expect.objectContaining({ id, owner: "alice", workspaceName: "alpha" }));
    const { id: runId } = await (await run("own-a", seen.bytes)).json();
    const claimed = await claimJobs(t.current.db, "own-a", new Date(), ["cleanup"]);
    const job = claimed.find((j) => j.kind === "cleanup")!;
    expect(claimed.find((j) => j.kind === "restore")?.keep).toBeUndefined();
    expect(job.keep).toEqual([".claude-code-data/projects/-work-app"]);
    expect(runId).toBeTruthy();
    // the Keep ends by itself after its days
    // an admin's preview lists it, and an admin's (or a policy's) run carries it to the reporter alike
    const adminPreview = await call(
      adminPreviewRoute,
      "POST",
      "/api/v1/cleanup/preview",
      { ...FLEET_CLAUDE_RUN, scope: { workspaceIds: ["own-a"] } },
      {},
      p.admin.cookie,
    );
    expect((await adminPreview.json()).kept).toContainEqual(expect.objectContaining({ id, owner: "alice" }));
    const adminRun = await createRun(t.current.db, { ...FLEET_CLAUDE_RUN, scope: { workspaceIds: ["own-a"] } }, ADMIN);
    const [adminJob] = await claimJobs(t.current.db, "own-a", new Date(), ["cleanup"]);
    expect(adminJob).toMatchObject({ keep: [".claude-code-data/projects/-work-app"] });
    expect(adminRun.jobs).toBe(1);
    expect(await keptPaths(t.current.db, "own-a", new Date(Date.now() + 6 * 86_400_000))).toHaveLength(1);
    expect(await keptPaths(t.current.db, "own-a", new Date(Date.now() + 8 * 86_400_000))).toEqual([]);
    const bobKeepEnd = await call(keepRoute, "DELETE", `/api/v1/me/keeps/${id}`, undefined, { id }, p.viewer.cookie);
    expect(bobKeepEnd.status).toBe(404);
    const ended = await call(
      adminKeepRoute,
      "DELETE",
      `/api/v1/cleanup/keeps/${id}`,
      undefined,
      { id },
      p.admin.cookie,
    );
    expect(ended.status).toBe(200);
    const [audit] = await t.current.db.select().from(auditLog).where(eq(auditLog.action, "cleanup.keep_ended"));
    expect(audit).toMatchObject({ target: id, actorLabel: p.admin.email });
  });
});
