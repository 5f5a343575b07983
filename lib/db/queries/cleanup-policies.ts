import "server-only";
import { count, desc, eq, inArray, sql, sum } from "drizzle-orm";
import { changesConfirmed } from "@/lib/cleanup/confirmation";
import { describeSchedule, nextRunAt } from "@/lib/cleanup/schedule";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { createPolicyRequest, type CreatePolicyRequest, type UpdatePolicyRequest } from "@/lib/validations/cleanup";
import { FINAL_JOB_STATES } from "@/lib/cleanup/job-states";
import { cleanupJobs, cleanupPolicies, cleanupRuns } from "../schema";
import type { Db } from "../types";
import { recordAudit } from "./audit";
import { previewRun, type CleanupPreview } from "./cleanup-preview";
import { assertConfirmed, createRun, type Who } from "./cleanup-runs";

export type PolicyRow = typeof cleanupPolicies.$inferSelect;

export type Policy = Omit<CreatePolicyRequest, "custom" | "recipe"> & {
  id: string;
  recipe: CreatePolicyRequest["recipe"] | null;
  custom: CreatePolicyRequest["custom"] | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  lastRunAt: string | null;
  lastRunId: string | null;
  /** When the scheduler next looks at it; null when it does not run by itself. */
  nextRunAt: string | null;
  /** "every Monday 03:00 UTC" */
  scheduleText: string;
  /** The preview figure an admin confirmed for the policy as it stands; null: its scheduled runs are dry runs. */
  confirmed: { bytes: number; workspaces: number; at: string; by: string } | null;
  /** A scheduled run held because its preview ran far above the confirmed figure; it waits for a new one. */
  held: { at: string; bytes: number; workspaces: number } | null;
};

/** The run request a policy stands for. */
export function policyRequest(p: PolicyRow): CreatePolicyRequest {
  return {
    name: p.name,
    schedule: p.schedule,
    runAtMinute: p.runAtMinute,
    runWeekday: p.runWeekday,
    enabled: p.enabled,
    recipe: (p.recipe ?? undefined) as CreatePolicyRequest["recipe"],
    custom: p.custom ?? undefined,
    params: p.params!,
    scope: p.scope,
    dryRun: p.dryRun,
    action: p.action,
    trashDays: p.trashDays,
    minAgeHours: p.minAgeHours,
    countStatusChanges: p.countStatusChanges,
    expiresDays: p.expiresDays,
  };
}

/** Whether the policy's scheduled runs may act: it only reports (dry run), or its figure was confirmed. */
export const mayAct = (p: PolicyRow) => p.dryRun || p.confirmedBytes !== null;

function toPolicy(p: PolicyRow): Policy {
  const next = nextRunAt(p);
  return {
    ...policyRequest(p),
    id: p.id,
    recipe: policyRequest(p).recipe ?? null,
    custom: p.custom ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    createdBy: p.createdBy,
    lastRunAt: p.lastRunAt?.toISOString() ?? null,
    lastRunId: p.lastRunId,
    nextRunAt: next?.toISOString() ?? null,
    scheduleText: describeSchedule(p),
    confirmed:
      p.confirmedBytes === null
        ? null
        : {
            bytes: p.confirmedBytes,
            workspaces: p.confirmedWorkspaces ?? 0,
            at: p.confirmedAt!.toISOString(),
            by: p.confirmedBy ?? "",
          },
    held: p.heldAt ? { at: p.heldAt.toISOString(), bytes: p.heldBytes ?? 0, workspaces: p.heldWorkspaces ?? 0 } : null,
  };
}

function columns(body: CreatePolicyRequest) {
  return {
    name: body.name,
    recipe: body.recipe ?? null,
    custom: body.custom ?? null,
    params: body.params,
    scope: body.scope,
    dryRun: body.dryRun,
    action: body.action ?? "trash",
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

const UNCONFIRMED = {
  confirmedBytes: null,
  confirmedWorkspaces: null,
  confirmedAt: null,
  confirmedBy: null,
  heldAt: null,
  heldBytes: null,
  heldWorkspaces: null,
};

export async function listPolicies(db: Db): Promise<Policy[]> {
  const rows = await db.select().from(cleanupPolicies).orderBy(desc(cleanupPolicies.createdAt));
  return rows.map((r) => toPolicy(r));
}

async function policyRow(db: Db, id: string, lock = false): Promise<PolicyRow> {
  const q = db.select().from(cleanupPolicies).where(eq(cleanupPolicies.id, id));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new NotFoundError(`No cleanup policy ${id}.`);
  return row;
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

async function lastRunOf(db: Db, runId: string | null): Promise<LastRun | null> {
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

/** A policy, what its next run would free if it ran now, and what its last run did (or would have done). */
export async function getPolicy(
  db: Db,
  id: string,
): Promise<{ policy: Policy; preview: CleanupPreview; lastRun: LastRun | null }> {
  const row = await policyRow(db, id);
  return {
    policy: toPolicy(row),
    preview: await previewRun(db, policyRequest(row)),
    lastRun: await lastRunOf(db, row.lastRunId),
  };
}

/** Saves a policy, unconfirmed: nothing is queued now, and its scheduled runs are dry runs until confirmed. */
export async function createPolicy(db: Db, body: CreatePolicyRequest, who: Who): Promise<Policy> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(cleanupPolicies)
      .values({ ...columns(body), createdBy: who.actor.label ?? who.actor.type })
      .returning();
    await recordAudit(tx, {
      actor: who.actor,
      action: "cleanup.policy_created",
      target: row.id,
      details: columns(body),
      ip: who.ip,
      userAgent: who.userAgent,
    });
    return toPolicy(row);
  });
}

/**
 * Applies a partial change; the policy that results must pass the same checks as a new one (422 otherwise). A
 * change to what it removes or how (CONFIRMED_FIELDS) drops its confirmation and any hold.
 */
export async function updatePolicy(db: Db, id: string, patch: UpdatePolicyRequest, who: Who): Promise<Policy> {
  return db.transaction(async (tx) => {
    const row = await policyRow(tx, id, true);
    const before = policyRequest(row);
    const merged = Object.fromEntries(
      Object.entries({ ...before, ...patch }).filter(([, v]) => v !== null && v !== undefined),
    );
    const parsed = createPolicyRequest.safeParse(merged);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      throw new ValidationError(
        `The policy would not be valid: ${issues[0]?.path || "(root)"}: ${issues[0]?.message}`,
        { issues },
      );
    }
    const reconfirm = row.confirmedBytes !== null && changesConfirmed(before, parsed.data);
    const [updated] = await tx
      .update(cleanupPolicies)
      .set({ ...columns(parsed.data), ...(reconfirm ? UNCONFIRMED : {}), updatedAt: new Date() })
      .where(eq(cleanupPolicies.id, id))
      .returning();
    await recordAudit(tx, {
      actor: who.actor,
      action: "cleanup.policy_updated",
      target: id,
      details: { name: updated.name, changes: patch, confirmationDropped: reconfirm },
      ip: who.ip,
      userAgent: who.userAgent,
    });
    return toPolicy(updated);
  });
}

export async function deletePolicy(db: Db, id: string, who: Who): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await policyRow(tx, id, true);
    await tx.delete(cleanupPolicies).where(eq(cleanupPolicies.id, id));
    await recordAudit(tx, {
      actor: who.actor,
      action: "cleanup.policy_deleted",
      target: id,
      details: { name: row.name },
      ip: who.ip,
      userAgent: who.userAgent,
    });
  });
}

/**
 * An admin confirms the figure the policy's preview shows ("trash 47.2 GiB from 127 workspaces, weekly"): from
 * now on its scheduled runs act, as long as their preview stays within RUNAWAY_FACTOR of it. Clears a hold.
 */
export async function confirmPolicy(db: Db, id: string, confirmBytes: number, who: Who): Promise<Policy> {
  return db.transaction(async (tx) => {
    const row = await policyRow(tx, id, true);
    if (row.dryRun)
      throw new ConflictError("This policy only reports what it would remove (dry run): there is nothing to confirm.");
    const preview = await previewRun(tx, policyRequest(row), { listAll: true });
    assertConfirmed(preview, confirmBytes);
    const { bytes, workspaces } = preview.total;
    if (bytes === 0) {
      throw new ConflictError(
        "Nothing to confirm: the policy selects nothing now. Its scheduled dry runs show what it would free.",
      );
    }
    const [updated] = await tx
      .update(cleanupPolicies)
      .set({
        ...UNCONFIRMED,
        confirmedBytes: bytes,
        confirmedWorkspaces: workspaces,
        confirmedAt: new Date(),
        confirmedBy: who.actor.label ?? who.actor.type,
      })
      .where(eq(cleanupPolicies.id, id))
      .returning();
    await recordAudit(tx, {
      actor: who.actor,
      action: "cleanup.policy_confirmed",
      target: id,
      details: {
        name: row.name,
        bytes,
        workspaces,
        action: row.action,
        schedule: describeSchedule(row),
        releasedHold: row.heldAt !== null,
      },
      ip: who.ip,
      userAgent: who.userAgent,
    });
    return toPolicy(updated);
  });
}

/** "Run now": one run of the policy, queued at once, for the figure the admin saw (409 when it moved). */
export async function runPolicy(
  db: Db,
  id: string,
  confirmBytes: number,
  who: Who,
  now = new Date(),
): Promise<{ id: string; jobs: number }> {
  const row = await policyRow(db, id);
  // createRun refuses the run when the preview moved from confirmBytes.
  const run = await createRun(db, { ...policyRequest(row), confirmBytes }, who, { policyId: id });
  await db.update(cleanupPolicies).set({ lastRunAt: now, lastRunId: run.id }).where(eq(cleanupPolicies.id, id));
  return run;
}
