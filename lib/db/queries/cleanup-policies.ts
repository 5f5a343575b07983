import "server-only";
import { and, count, desc, eq, inArray, isNull, ne, sql, sum } from "drizzle-orm";
import { onlyDeleted } from "@/lib/catalog/recipes";
import { FINAL_JOB_STATES } from "@/lib/cleanup/job-states";
import type { CreatePolicyRequest } from "@/lib/validations/cleanup";
import { cleanupJobs, cleanupPolicies, cleanupRuns } from "../schema";
import { SCHEDULER_LOCK } from "../advisory-locks";
import { tryAdvisoryLock } from "../try-lock";
import type { Db } from "../types";

export type PolicyRow = typeof cleanupPolicies.$inferSelect;
type PolicyChange = Partial<typeof cleanupPolicies.$inferInsert>;

/** The columns a policy request sets. */
export function policyColumns(body: CreatePolicyRequest) {
  return {
    name: body.name,
    recipe: body.recipe ?? null,
    custom: body.custom ?? null,
    params: body.params,
    scope: body.scope,
    dryRun: body.dryRun,
    // a package cache is only ever deleted (runRequest refuses "trash" for it)
    action: body.action ?? (onlyDeleted(body) ? "delete" : "trash"),
    trashDays: body.trashDays,
    minAgeHours: body.minAgeHours,
    countStatusChanges: body.countStatusChanges,
    expiresDays: body.expiresDays,
    schedule: body.schedule,
    runAtMinute: body.runAtMinute,
    runWeekday: body.runWeekday,
    enabled: body.enabled,
  };
}

/** The confirmation and hold columns cleared: the policy's scheduled runs are dry runs until confirmed again. */
export const UNCONFIRMED = {
  confirmedBytes: null,
  confirmedWorkspaces: null,
  confirmedAt: null,
  confirmedBy: null,
  heldAt: null,
  heldBytes: null,
  heldWorkspaces: null,
};

export async function policyRows(db: Db): Promise<PolicyRow[]> {
  return db.select().from(cleanupPolicies).orderBy(desc(cleanupPolicies.createdAt));
}

/** One policy, locked for the caller's transaction with `lock`; undefined when there is none. */
export async function policyRow(db: Db, id: string, lock = false): Promise<PolicyRow | undefined> {
  const q = db.select().from(cleanupPolicies).where(eq(cleanupPolicies.id, id));
  const [row] = lock ? await q.for("update") : await q;
  return row;
}

/** Takes the scheduler's lock for the caller's transaction; false when another instance's tick holds it. */
export async function trySchedulerLock(tx: Db): Promise<boolean> {
  return tryAdvisoryLock(tx, SCHEDULER_LOCK, "transaction");
}

/** The enabled, scheduled policies that no hold stops (the scheduler picks the due ones). */
export async function scheduledPolicies(db: Db): Promise<PolicyRow[]> {
  return db
    .select()
    .from(cleanupPolicies)
    .where(and(eq(cleanupPolicies.enabled, true), ne(cleanupPolicies.schedule, "off"), isNull(cleanupPolicies.heldAt)));
}

export async function insertPolicy(db: Db, body: CreatePolicyRequest, createdBy: string): Promise<PolicyRow> {
  const [row] = await db
    .insert(cleanupPolicies)
    .values({ ...policyColumns(body), createdBy })
    .returning();
  return row;
}

export async function setPolicy(db: Db, id: string, change: PolicyChange): Promise<PolicyRow> {
  const [row] = await db.update(cleanupPolicies).set(change).where(eq(cleanupPolicies.id, id)).returning();
  return row;
}

export async function deletePolicyRow(db: Db, id: string): Promise<void> {
  await db.delete(cleanupPolicies).where(eq(cleanupPolicies.id, id));
}

/**
 * The policy's last run as its page tells it: a dry run's jobs report what they would have freed, a real run's
 * what they freed, as the workspaces' reporters send their results.
 */
export type LastRun = {
  id: string;
  createdAt: string;
  dryRun: boolean;
  jobs: number;
  finished: number;
  units: number;
  bytes: number;
};

export async function lastRunOf(db: Db, runId: string | null): Promise<LastRun | null> {
  if (!runId) return null;
  const [run] = await db
    .select({ createdAt: cleanupRuns.createdAt, dryRun: cleanupRuns.dryRun })
    .from(cleanupRuns)
    .where(eq(cleanupRuns.id, runId));
  if (!run) return null; // expired with the cleanup history
  const [jobs] = await db
    .select({
      jobs: count(),
      finished: sql<number>`count(*) filter (where ${inArray(cleanupJobs.state, [...FINAL_JOB_STATES])})`.mapWith(
        Number,
      ),
      units: sum(cleanupJobs.unitsActed).mapWith(Number),
      bytes: sum(cleanupJobs.bytesActed).mapWith(Number),
    })
    .from(cleanupJobs)
    .where(eq(cleanupJobs.runId, runId));
  return {
    id: runId,
    createdAt: run.createdAt.toISOString(),
    dryRun: run.dryRun,
    jobs: jobs.jobs,
    finished: jobs.finished,
    units: jobs.units ?? 0,
    bytes: jobs.bytes ?? 0,
  };
}
