import "server-only";
import { changesConfirmed } from "@/lib/cleanup/confirmation";
import { describeSchedule } from "@/lib/cleanup/schedule";
import type { Db } from "@/lib/db/types";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import {
  deletePolicyRow,
  insertPolicy,
  lastRunOf,
  policyColumns,
  policyRow as findPolicyRow,
  policyRows,
  setPolicy,
  UNCONFIRMED,
  type LastRun,
  type PolicyRow,
} from "@/lib/db/queries/cleanup-policies";
import { previewRun, type CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { createPolicyRequest, type CreatePolicyRequest, type UpdatePolicyRequest } from "@/lib/validations/cleanup";
import { assertConfirmed, createRun } from "./cleanup-runs";
import { POLICY_PREVIEW, policyRequest, toPolicy, type Policy } from "./policy-view";

export type { LastRun, Policy };

export async function listPolicies(db: Db): Promise<Policy[]> {
  return (await policyRows(db)).map((r) => toPolicy(r));
}

async function policyRow(db: Db, id: string, lock = false): Promise<PolicyRow> {
  const row = await findPolicyRow(db, id, lock);
  if (!row) throw new NotFoundError(`No cleanup policy ${id}.`);
  return row;
}

/** A policy, what its next run would free if it ran now, and what its last run did (or would have done). */
export async function getPolicy(
  db: Db,
  id: string,
): Promise<{ policy: Policy; preview: CleanupPreview; lastRun: LastRun | null }> {
  const row = await policyRow(db, id);
  return {
    policy: toPolicy(row),
    preview: await previewRun(db, policyRequest(row), POLICY_PREVIEW),
    lastRun: await lastRunOf(db, row.lastRunId),
  };
}

/** Saves a policy, unconfirmed: nothing is queued now, and its scheduled runs are dry runs until confirmed. */
export async function createPolicy(db: Db, body: CreatePolicyRequest, who: Who): Promise<Policy> {
  return db.transaction(async (tx) => {
    const row = await insertPolicy(tx, body, who.actor.label ?? who.actor.type);
    await recordAudit(tx, {
      actor: who.actor,
      action: "cleanup.policy_created",
      target: row.id,
      details: policyColumns(body),
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
    const updated = await setPolicy(tx, id, {
      ...policyColumns(parsed.data),
      ...(reconfirm ? UNCONFIRMED : {}),
      updatedAt: new Date(),
    });
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
    await deletePolicyRow(tx, id);
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
    const preview = await previewRun(tx, policyRequest(row), { ...POLICY_PREVIEW, listAll: true });
    assertConfirmed(preview, confirmBytes);
    const { bytes, workspaces } = preview.total;
    if (bytes === 0) {
      throw new ConflictError(
        "Nothing to confirm: the policy selects nothing now. Its scheduled dry runs show what it would free.",
      );
    }
    const updated = await setPolicy(tx, id, {
      ...UNCONFIRMED,
      confirmedBytes: bytes,
      confirmedWorkspaces: workspaces,
      confirmedAt: new Date(),
      confirmedBy: who.actor.label ?? who.actor.type,
    });
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
  const run = await createRun(db, { ...policyRequest(row), ...POLICY_PREVIEW, confirmBytes }, who, { policyId: id });
  await setPolicy(db, id, { lastRunAt: now, lastRunId: run.id });
  return run;
}
