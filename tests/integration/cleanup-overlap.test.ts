// What the new-run page and a run's page say before and while a run waits, on both databases: the runs of the
// same cleanup still under way on a workspace in scope, and how long the waiting jobs' reporters have been quiet.
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import type { Who } from "@/lib/db/queries/audit";
import { overlappingRuns } from "@/lib/db/queries/cleanup-overlap";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { waitingReporters } from "@/lib/db/queries/cleanup-waiting";
import { cancelRun, createRun } from "@/lib/services/cleanup-runs";
import { MiB } from "@/tests/support/reports";
import { claudeRoot, FLEET_CLAUDE_RUN, seedWorkspace, usage } from "@/tests/support/cleanup";

const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };
const RUN = { ...FLEET_CLAUDE_RUN, dryRun: true };
const earlier = new Date(Date.now() - 5 * 3600_000).toISOString();
const later = new Date(Date.now() - 2 * 3600_000).toISOString();
/** Past the silent-workspace rule's default 24 hours. */
const daysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();

describeEachDatabase("cleanup runs that overlap, and reporters that stopped calling in", (t) => {
  let runId = "";

  beforeAll(async () => {
    const db = t.current.db;
    await seedWorkspace(db, { id: "ov-a", owner: "alice" }, earlier, [claudeRoot(usage({ 90: [4, 400 * MiB] }))]);
    await seedWorkspace(db, { id: "ov-b", owner: "bob" }, later, [claudeRoot(usage({ 90: [2, 100 * MiB] }))]);
    await seedWorkspace(db, { id: "ov-c", owner: "carol" }, later, [claudeRoot(usage({ 1: [1, 1 * MiB] }))]);
    await seedWorkspace(db, { id: "ov-z", owner: "zed" }, daysAgo, [claudeRoot(usage({ 90: [3, 300 * MiB] }))]);
    ({ id: runId } = await createRun(db, { ...RUN, scope: { owners: ["alice", "bob"] } }, ADMIN));
  });

  it("finds a queued run of the same recipe that shares a workspace with the scope, and only then", async () => {
    const db = t.current.db;
    const all = await overlappingRuns(db, { recipe: RUN.recipe, scope: { all: true } });
    expect(all.map((r) => [r.id, r.dryRun, r.workspaces])).toEqual([[runId, true, 2]]);
    const bob = await overlappingRuns(db, { recipe: RUN.recipe, scope: { workspaceIds: ["ov-b"] } });
    expect(bob.map((r) => r.workspaces)).toEqual([1]);
    // carol's workspace has no job of it; another recipe is another cleanup
    await expect(overlappingRuns(db, { recipe: RUN.recipe, scope: { owners: ["carol"] } })).resolves.toEqual([]);
    await expect(overlappingRuns(db, { recipe: "codex-rollouts", scope: { all: true } })).resolves.toEqual([]);
  });

  it("leaves silent workspaces out of a preview and a run unless asked, and flags them", async () => {
    const db = t.current.db;
    const scope = { owners: ["bob", "zed"] };
    const out = await previewRun(db, { ...RUN, scope });
    expect(out.workspaces.map((w) => w.workspaceId)).toEqual(["ov-b"]);
    expect(out.total).toMatchObject({ workspaces: 1, bytes: 100 * MiB });
    expect(out.silent).toMatchObject({ count: 1, bytes: 300 * MiB, hours: 24, included: false });
    expect(out.silent.workspaces.map((w) => [w.workspaceId, w.silent])).toEqual([["ov-z", true]]);
    const taken = await previewRun(db, { ...RUN, scope }, { includeSilent: true });
    expect(taken.workspaces.map((w) => [w.workspaceId, w.silent])).toEqual([
      ["ov-z", true],
      ["ov-b", false],
    ]);
    expect(taken.total).toMatchObject({ workspaces: 2, bytes: 400 * MiB });
    // a run queues jobs as its preview lists them
    const run = await createRun(db, { ...RUN, scope }, ADMIN);
    expect(run.jobs).toBe(1);
    await cancelRun(db, run.id, ADMIN);
  });

  it("says when the newest report of the waiting jobs' workspaces came", async () => {
    const w = await waitingReporters(t.current.db, runId);
    expect(w.jobs).toBe(2);
    expect(w.lastReportAt).toBe(later);
    expect(w.quietHours).toBe(2);
  });

  it("drops a cancelled run from the overlap, and its jobs from the waiting", async () => {
    const db = t.current.db;
    await cancelRun(db, runId, ADMIN);
    await expect(overlappingRuns(db, { recipe: RUN.recipe, scope: { all: true } })).resolves.toEqual([]);
    await expect(waitingReporters(db, runId)).resolves.toEqual({ jobs: 0, lastReportAt: null, quietHours: null });
  });
});
