// Package caches through the dashboard on both databases: a report's cache root (kind "package-cache") is
// accepted and previewed at its frees figure; a run or policy that would trash a cache is refused and changes
// nothing; without an action it deletes, and the job the reporter claims says so.
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as claimRoute from "@/app/api/v1/jobs/claim/route";
import * as runsRoute from "@/app/api/v1/cleanup/runs/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
import type { Who } from "@/lib/db/queries/audit";
import { topAgents } from "@/lib/db/queries/fleet-lists";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import { auditLog, cleanupRuns } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { createPolicy, updatePolicy } from "@/lib/services/cleanup-policies";
import { MiB } from "@/tests/support/reports";
import { seedWorkspace, usage, type Enrolled } from "@/tests/support/cleanup";

const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };
const RUN = {
  recipe: "pnpm-store" as const,
  params: { olderThanDays: 1 },
  scope: { all: true as const },
  dryRun: false,
  trashDays: 7,
  minAgeHours: 24,
  countStatusChanges: false,
};

describeEachDatabase("package cache cleanup", (t) => {
  let ws: Enrolled;
  let p: Principals;

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    // a 900 MiB store of which 40 MiB is linked from no project: the preview's figure
    ws = await seedWorkspace(t.current.db, { id: "pc-a", owner: "alice" }, when, [
      {
        key: "package-cache:pnpm",
        kind: "package-cache",
        agent: "package-cache",
        path: ".local/share/pnpm/store",
        bytes: 900 * MiB,
        recipes: { "pnpm-store": usage({ 30: [1, 40 * MiB] }) },
      },
    ]);
    p = await makePrincipals(t.current, "package-caches");
  });

  const postRun = (body: object) =>
    runsRoute.POST(
      new Request(`${BASE}/api/v1/cleanup/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${p.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      ctx(),
    );

  it("refuses a run that would trash a cache: no run, no audit entry", async () => {
    const res = await postRun({ ...RUN, action: "trash", confirmBytes: 40 * MiB });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("only ever deleted");
    expect(await t.current.db.select().from(cleanupRuns)).toEqual([]);
    expect(await t.current.db.select().from(auditLog).where(eq(auditLog.action, "cleanup.run_created"))).toEqual([]);
  });

  it("refuses a custom rule inside a cache that would trash, and a policy of one deletes by default", async () => {
    const fields = { ...RUN, recipe: undefined };
    const custom = { rootKey: "package-cache:pnpm", glob: "v3/files/**", unit: "file" as const };
    const res = await postRun({ ...fields, custom, action: "trash", confirmBytes: 0 });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("only ever deleted");
    expect(await t.current.db.select().from(cleanupRuns)).toEqual([]);
    const policy = await createPolicy(
      t.current.db,
      {
        ...fields,
        custom,
        name: "pnpm files",
        schedule: "daily",
        runAtMinute: 120,
        runWeekday: 1,
        enabled: true,
        expiresDays: 7,
      },
      ADMIN,
    );
    expect(policy.action).toBe("delete");
    await expect(updatePolicy(t.current.db, policy.id, { action: "trash" }, ADMIN)).rejects.toMatchObject({
      status: 422,
    });
    // the same rule in an agent's root may trash
    const other = await postRun({
      ...fields,
      custom: { ...custom, rootKey: "codex:data" },
      action: "trash",
      confirmBytes: 0,
    });
    expect(JSON.stringify(await other.json())).not.toContain("only ever deleted");
  });

  it("deletes by default, at the frees figure, and the claimed job deletes", async () => {
    const res = await postRun({ ...RUN, confirmBytes: 40 * MiB });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const detail = (await getRunDetail(t.current.db, id))!;
    expect(detail.run).toMatchObject({ action: "delete", previewBytes: 40 * MiB });
    expect(detail.jobs.map((j) => [j.workspaceId, j.rootKeys])).toEqual([["pc-a", ["package-cache:pnpm"]]]);
    const claim = await claimRoute.POST(
      new Request(`${BASE}/api/v1/jobs/claim`, {
        method: "POST",
        headers: { authorization: `Bearer ${ws.token}` },
      }),
      ctx(),
    );
    const { jobs } = await claim.json();
    expect(jobs.map((j: { recipe: string; action: string }) => [j.recipe, j.action])).toEqual([
      ["pnpm-store", "delete"],
    ]);
  });

  it("a policy on a cache deletes by default and cannot be changed to trash", async () => {
    const policy = await createPolicy(
      t.current.db,
      { ...RUN, name: "caches", schedule: "daily", runAtMinute: 180, runWeekday: 1, enabled: true, expiresDays: 7 },
      ADMIN,
    );
    expect(policy.action).toBe("delete");
    await expect(updatePolicy(t.current.db, policy.id, { action: "trash" }, ADMIN)).rejects.toMatchObject({
      status: 422,
    });
  });

  it("shows the caches as a series of their own, no agent's", async () => {
    const top = await topAgents(t.current.db, 10);
    expect(top.find((a) => a.agent === "package-cache")?.bytes).toBe(900 * MiB);
  });
});
