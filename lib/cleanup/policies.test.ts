// Policies on both databases: CRUD with audit, the next run previewed, run now, and the scheduler (due
// policies queued once, started by the policy, one tick at a time across instances).
import { eq, like, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { createPolicy, deletePolicy, getPolicy, listPolicies, runPolicy, updatePolicy } from "@/lib/db/queries/cleanup-policies";
import type { Who } from "@/lib/db/queries/cleanup-runs";
import { listRuns } from "@/lib/db/queries/cleanup-views";
import { auditLog, cleanupPolicies, cleanupRuns } from "@/lib/db/schema";
import { describeEachDatabase } from "@/lib/db/testing";
import { at, MiB, testNow } from "@/tests/support/reports";
import { claudeRoot, seedWorkspace, usage } from "@/tests/support/cleanup";
import { runDuePolicies } from "./scheduler";

const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };
const POLICY = {
  name: "old sessions", recipe: "claude-code-sessions" as const, params: { olderThanDays: 30 }, scope: { all: true as const },
  schedule: "daily" as const, enabled: true, dryRun: false, trashDays: 7, minAgeHours: 24, countStatusChanges: false, expiresDays: 7,
};

describeEachDatabase("cleanup policies", (t) => {
  beforeAll(async () => {
    const when = at(testNow(), 0);
    await seedWorkspace(t.current.db, { id: "po-a", owner: "alice" }, when, [claudeRoot(usage({ 60: [5, 200 * MiB] }))]);
    await seedWorkspace(t.current.db, { id: "po-b", owner: "bob" }, when, [claudeRoot(usage({ 90: [1, 50 * MiB] }))]);
  });

  it("creates, reads with its next run previewed, changes and deletes policies, audited", async () => {
    const db = t.current.db;
    const created = await createPolicy(db, { ...POLICY, schedule: "weekly" }, ADMIN);
    const { policy, preview } = await getPolicy(db, created.id);
    expect(policy).toMatchObject({ name: "old sessions", schedule: "weekly", enabled: true, lastRunAt: null, createdBy: "admin@example.com" });
    expect(policy.nextRunAt).not.toBeNull();
    expect(preview.total).toMatchObject({ bytes: 250 * MiB, workspaces: 2 });
    const changed = await updatePolicy(db, created.id, { enabled: false, params: { keepNewest: 3 } }, ADMIN);
    expect(changed).toMatchObject({ enabled: false, params: { keepNewest: 3 }, nextRunAt: null });
    await expect(updatePolicy(db, created.id, { params: {} }, ADMIN)).rejects.toMatchObject({ status: 422 });
    await deletePolicy(db, created.id, ADMIN);
    await expect(getPolicy(db, created.id)).rejects.toMatchObject({ status: 404 });
    const actions = (await db.select().from(auditLog).where(like(auditLog.action, "cleanup.policy_%"))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["cleanup.policy_created", "cleanup.policy_updated", "cleanup.policy_deleted"]));
  });

  it("runs a policy now: a run recorded with the policy", async () => {
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, schedule: "off", name: "manual" }, ADMIN);
    const run = await runPolicy(db, policy.id, ADMIN);
    expect(run.jobs).toBe(2);
    const runs = await listRuns(db, { limit: 10, policyId: policy.id });
    expect(runs.runs.map((r) => [r.id, r.policyId, r.createdBy])).toEqual([[run.id, policy.id, "admin@example.com"]]);
    expect((await getPolicy(db, policy.id)).policy.lastRunId).toBe(run.id);
    // An "off" policy is never queued by the scheduler.
    expect((await runDuePolicies(db)).started).toEqual([]);
    await deletePolicy(db, policy.id, ADMIN);
  });

  it("queues due policies once, started by the policy, even when two instances tick at once", async () => {
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, name: "nightly" }, ADMIN);
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(cleanupRuns))[0].n;
    const ticks = await Promise.all([runDuePolicies(db), runDuePolicies(db)]);
    const started = ticks.flatMap((tk) => tk.started);
    expect(started).toHaveLength(1);
    expect(started[0].policyId).toBe(policy.id);
    const after = (await db.select({ n: sql<number>`count(*)::int` }).from(cleanupRuns))[0].n;
    expect(after - before).toBe(1);
    const [run] = await db.select().from(cleanupRuns).where(eq(cleanupRuns.id, started[0].runId!));
    expect(run).toMatchObject({ policyId: policy.id, createdByType: "system", createdByLabel: "policy: nightly" });
    // Not due again until a day has passed.
    expect((await runDuePolicies(db)).started).toEqual([]);
    const tomorrow = new Date(Date.now() + 86_400_000 + 60_000);
    expect((await runDuePolicies(db, tomorrow)).started.map((s) => s.policyId)).toEqual([policy.id]);
    await db.update(cleanupPolicies).set({ enabled: false }).where(eq(cleanupPolicies.id, policy.id));
  });

  it("skips a tick while another instance holds the scheduler's lock", async () => {
    if (t.current.kind === "embedded") return; // one connection: nothing else can hold a lock meanwhile
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, name: "locked" }, ADMIN);
    let inner: Awaited<ReturnType<typeof runDuePolicies>> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7244202)`);
      inner = await runDuePolicies(db); // another pooled connection, as another instance would
    });
    expect(inner).toEqual({ locked: false, started: [] });
    expect((await runDuePolicies(db)).started.map((s) => s.policyId)).toEqual([policy.id]);
    expect((await listPolicies(db)).find((p) => p.id === policy.id)?.lastRunId).not.toBeNull();
  });
});
