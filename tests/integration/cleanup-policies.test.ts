// Policies on both databases: CRUD with audit, the next run previewed, and the scheduler. A saved policy queues
// nothing; its turns are dry runs until an admin confirms its figure; a turn whose preview ran far above that
// figure is held; a change to what it removes asks for a new confirmation; "run now" needs the figure too; one
// tick at a time across instances.
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { SCHEDULER_LOCK } from "@/lib/db/advisory-locks";
import {
  confirmPolicy,
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  runPolicy,
  updatePolicy,
} from "@/lib/services/cleanup-policies";
import type { Who } from "@/lib/db/queries/audit";
import { listRuns } from "@/lib/db/queries/cleanup-views";
import { auditLog, cleanupPolicies, cleanupRuns } from "@/lib/db/schema";
import { describeEachDatabase } from "@/tests/support/db";
import { at, MiB, testNow } from "@/tests/support/reports";
import { claudeRoot, seedWorkspace, usage } from "@/tests/support/cleanup";
import { runDuePolicies } from "@/lib/services/cleanup-scheduler";

const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };
const POLICY = {
  name: "old sessions",
  recipe: "claude-code-sessions" as const,
  params: { olderThanDays: 30 },
  scope: { all: true as const },
  schedule: "daily" as const,
  enabled: true,
  dryRun: false,
  trashDays: 7,
  minAgeHours: 24,
  countStatusChanges: false,
  expiresDays: 7,
  runAtMinute: 180,
  runWeekday: 1,
};
const DAY = 86_400_000;
/** The n-th daily 03:00 UTC slot after now, and a minute past it. */
const slot = (n: number) => {
  const d = new Date();
  d.setUTCHours(3, 1, 0, 0);
  return new Date(d.getTime() + (d.getTime() <= Date.now() ? n : n - 1) * DAY);
};

describeEachDatabase("cleanup policies", (t) => {
  const when = () => at(testNow(), 0);
  beforeAll(async () => {
    await seedWorkspace(t.current.db, { id: "po-a", owner: "alice" }, when(), [
      claudeRoot(usage({ 60: [5, 200 * MiB] })),
    ]);
    await seedWorkspace(t.current.db, { id: "po-b", owner: "bob" }, when(), [claudeRoot(usage({ 90: [1, 50 * MiB] }))]);
  });
  const runsOf = async (policyId: string) => (await listRuns(t.current.db, { limit: 50, policyId })).runs;
  const audits = async (action: string, target: string) =>
    t.current.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.target, target)));

  it("creates, reads with its next run previewed, changes and deletes policies, audited", async () => {
    const db = t.current.db;
    const created = await createPolicy(db, { ...POLICY, schedule: "weekly" }, ADMIN);
    const { policy, preview } = await getPolicy(db, created.id);
    expect(policy).toMatchObject({
      name: "old sessions",
      schedule: "weekly",
      enabled: true,
      lastRunAt: null,
      createdBy: "admin@example.com",
    });
    expect(policy).toMatchObject({ scheduleText: "every Monday 03:00 UTC", confirmed: null, held: null });
    expect(new Date(policy.nextRunAt!).getUTCDay()).toBe(1);
    expect(preview.total).toMatchObject({ bytes: 250 * MiB, workspaces: 2 });
    const changed = await updatePolicy(db, created.id, { enabled: false, params: { keepNewest: 3 } }, ADMIN);
    expect(changed).toMatchObject({ enabled: false, params: { keepNewest: 3 }, nextRunAt: null });
    await expect(updatePolicy(db, created.id, { params: {} }, ADMIN)).rejects.toMatchObject({ status: 422 });
    await deletePolicy(db, created.id, ADMIN);
    await expect(getPolicy(db, created.id)).rejects.toMatchObject({ status: 404 });
    const actions = (await db.select().from(auditLog).where(like(auditLog.action, "cleanup.policy_%"))).map(
      (r) => r.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining(["cleanup.policy_created", "cleanup.policy_updated", "cleanup.policy_deleted"]),
    );
  });

  it("a saved policy queues nothing; until confirmed its turns are dry runs; confirmed, they act", async () => {
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, name: "confirm me" }, ADMIN);
    // saving queues nothing, and nothing is due before its first slot
    expect(await runsOf(policy.id)).toEqual([]);
    expect((await runDuePolicies(db)).started.filter((s) => s.policyId === policy.id)).toEqual([]);
    expect(new Date(policy.nextRunAt!).getTime()).toBeGreaterThan(Date.now());

    const first = (await runDuePolicies(db, slot(1))).started.find((s) => s.policyId === policy.id)!;
    expect(first.outcome).toBe("dry-run");
    const [dry] = await db.select().from(cleanupRuns).where(eq(cleanupRuns.id, first.runId!));
    expect(dry).toMatchObject({ dryRun: true, policyId: policy.id, previewBytes: 250 * MiB });

    // a figure that is not the preview's is refused; the preview's is taken
    await expect(confirmPolicy(db, policy.id, 100 * MiB, ADMIN)).rejects.toMatchObject({ status: 409 });
    const confirmed = await confirmPolicy(db, policy.id, 250 * MiB, ADMIN);
    expect(confirmed.confirmed).toMatchObject({ bytes: 250 * MiB, workspaces: 2, by: "admin@example.com" });
    expect(await audits("cleanup.policy_confirmed", policy.id)).toHaveLength(1);

    const second = (await runDuePolicies(db, slot(2))).started.find((s) => s.policyId === policy.id)!;
    expect(second.outcome).toBe("run");
    const [real] = await db.select().from(cleanupRuns).where(eq(cleanupRuns.id, second.runId!));
    expect(real).toMatchObject({ dryRun: false, action: "trash", previewBytes: 250 * MiB });

    // its name or time may change; what it removes may not without a new confirmation
    expect((await updatePolicy(db, policy.id, { name: "renamed", runAtMinute: 200 }, ADMIN)).confirmed).not.toBeNull();
    expect((await updatePolicy(db, policy.id, { action: "delete" }, ADMIN)).confirmed).toBeNull();
    const third = (await runDuePolicies(db, slot(3))).started.find((s) => s.policyId === policy.id)!;
    expect(third.outcome).toBe("dry-run");
    await db.update(cleanupPolicies).set({ enabled: false }).where(eq(cleanupPolicies.id, policy.id));
  });

  it("a turn whose preview is more than twice the confirmed figure is held, audited, until a new confirmation", async () => {
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, name: "runaway", scope: { owners: ["carol"] } }, ADMIN);
    await seedWorkspace(db, { id: "po-c", owner: "carol" }, when(), [claudeRoot(usage({ 60: [2, 100 * MiB] }))]);
    await confirmPolicy(db, policy.id, 100 * MiB, ADMIN);
    // the fleet grows: carol's second workspace brings three times as much
    await seedWorkspace(db, { id: "po-d", owner: "carol" }, when(), [claudeRoot(usage({ 60: [4, 300 * MiB] }))]);
    const turn = (await runDuePolicies(db, slot(1))).started.find((s) => s.policyId === policy.id)!;
    expect(turn).toMatchObject({ outcome: "held", runId: null });
    expect(await runsOf(policy.id)).toEqual([]);
    const { policy: held } = await getPolicy(db, policy.id);
    expect(held.held).toMatchObject({ bytes: 400 * MiB, workspaces: 2 });
    const [audit] = await audits("cleanup.policy_held", policy.id);
    expect(audit.details).toMatchObject({
      preview: { bytes: 400 * MiB, workspaces: 2 },
      confirmed: { bytes: 100 * MiB, workspaces: 1 },
      factor: 2,
    });
    // held: later turns do nothing either
    expect((await runDuePolicies(db, slot(2))).started.filter((s) => s.policyId === policy.id)).toEqual([]);
    // a new confirmation of the new figure releases it
    const again = await confirmPolicy(db, policy.id, 400 * MiB, ADMIN);
    expect(again).toMatchObject({ held: null, confirmed: { bytes: 400 * MiB, workspaces: 2 } });
    expect((await runDuePolicies(db, slot(3))).started.find((s) => s.policyId === policy.id)).toMatchObject({
      outcome: "run",
    });
    await db.update(cleanupPolicies).set({ enabled: false }).where(eq(cleanupPolicies.id, policy.id));
  });

  it("runs a policy now for the figure the admin saw: a run recorded with the policy", async () => {
    const db = t.current.db;
    const policy = await createPolicy(
      db,
      { ...POLICY, schedule: "off", name: "manual", scope: { owners: ["alice", "bob"] } },
      ADMIN,
    );
    await expect(runPolicy(db, policy.id, 1 * MiB, ADMIN)).rejects.toMatchObject({ status: 409 });
    expect(await runsOf(policy.id)).toEqual([]);
    const run = await runPolicy(db, policy.id, 250 * MiB, ADMIN);
    expect(run.jobs).toBe(2);
    const runs = await runsOf(policy.id);
    expect(runs.map((r) => [r.id, r.policyId, r.createdBy])).toEqual([[run.id, policy.id, "admin@example.com"]]);
    expect((await getPolicy(db, policy.id)).policy.lastRunId).toBe(run.id);
    // An "off" policy is never queued by the scheduler.
    expect((await runDuePolicies(db, slot(5))).started.filter((s) => s.policyId === policy.id)).toEqual([]);
    await deletePolicy(db, policy.id, ADMIN);
  });

  it("takes each due policy once, started by the policy, even when two instances tick at once", async () => {
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, name: "nightly", dryRun: true }, ADMIN);
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(cleanupRuns))[0].n;
    const ticks = await Promise.all([runDuePolicies(db, slot(1)), runDuePolicies(db, slot(1))]);
    const started = ticks.flatMap((tk) => tk.started).filter((s) => s.policyId === policy.id);
    expect(started).toHaveLength(1);
    const after = (await db.select({ n: sql<number>`count(*)::int` }).from(cleanupRuns))[0].n;
    expect(after - before).toBe(1);
    const [run] = await db.select().from(cleanupRuns).where(eq(cleanupRuns.id, started[0].runId!));
    expect(run).toMatchObject({
      policyId: policy.id,
      createdByType: "system",
      createdByLabel: "policy: nightly",
      dryRun: true,
    });
    // Not due again until its next slot.
    expect((await runDuePolicies(db, slot(1))).started.filter((s) => s.policyId === policy.id)).toEqual([]);
    expect((await runDuePolicies(db, slot(2))).started.map((s) => s.policyId)).toContain(policy.id);
    await db.update(cleanupPolicies).set({ enabled: false }).where(eq(cleanupPolicies.id, policy.id));
  });

  it("skips a tick while another instance holds the scheduler's lock", async () => {
    if (t.current.kind === "embedded") return; // one connection: nothing else can hold a lock meanwhile
    const db = t.current.db;
    const policy = await createPolicy(db, { ...POLICY, name: "locked", dryRun: true }, ADMIN);
    let inner: Awaited<ReturnType<typeof runDuePolicies>> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SCHEDULER_LOCK})`);
      inner = await runDuePolicies(db, slot(1)); // another pooled connection, as another instance would
    });
    expect(inner).toEqual({ locked: false, started: [] });
    expect((await runDuePolicies(db, slot(1))).started.map((s) => s.policyId)).toContain(policy.id);
    expect((await listPolicies(db)).find((p) => p.id === policy.id)?.lastRunId).not.toBeNull();
  });
});
