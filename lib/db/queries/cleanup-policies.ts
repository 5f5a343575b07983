import "server-only";
import { desc, eq } from "drizzle-orm";
import { nextRunAt } from "@/lib/cleanup/schedule";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { createPolicyRequest, type CreatePolicyRequest, type UpdatePolicyRequest } from "@/lib/validations/cleanup";
import { cleanupPolicies } from "../schema";
import type { Db } from "../types";
import { recordAudit } from "./audit";
import { previewRun, type CleanupPreview } from "./cleanup-preview";
import { createRun, type Who } from "./cleanup-runs";

type PolicyRow = typeof cleanupPolicies.$inferSelect;

export type Policy = Omit<CreatePolicyRequest, "custom" | "recipe"> & {
  id: string;
  recipe: CreatePolicyRequest["recipe"] | null;
  custom: CreatePolicyRequest["custom"] | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  lastRunAt: string | null;
  lastRunId: string | null;
  /** When the scheduler next queues its run; null when it does not run by itself. */
  nextRunAt: string | null;
};

/** The run request a policy stands for. */
export function policyRequest(p: PolicyRow): CreatePolicyRequest {
  return {
    name: p.name, schedule: p.schedule, enabled: p.enabled, recipe: (p.recipe ?? undefined) as CreatePolicyRequest["recipe"],
    custom: p.custom ?? undefined, params: p.params!, scope: p.scope, dryRun: p.dryRun, action: p.action, trashDays: p.trashDays,
    minAgeHours: p.minAgeHours, countStatusChanges: p.countStatusChanges, expiresDays: p.expiresDays,
  };
}

function toPolicy(p: PolicyRow, now = new Date()): Policy {
  const next = nextRunAt(p, now);
  return {
    ...policyRequest(p), id: p.id, recipe: policyRequest(p).recipe ?? null, custom: p.custom ?? null, createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(), createdBy: p.createdBy, lastRunAt: p.lastRunAt?.toISOString() ?? null, lastRunId: p.lastRunId,
    nextRunAt: next?.toISOString() ?? null,
  };
}

function columns(body: CreatePolicyRequest) {
  return {
    name: body.name, recipe: body.recipe ?? null, custom: body.custom ?? null, params: body.params, scope: body.scope, dryRun: body.dryRun,
    action: body.action ?? "trash", trashDays: body.trashDays, minAgeHours: body.minAgeHours, countStatusChanges: body.countStatusChanges,
    expiresDays: body.expiresDays,
    schedule: body.schedule, enabled: body.enabled,
  };
}

export async function listPolicies(db: Db): Promise<Policy[]> {
  const rows = await db.select().from(cleanupPolicies).orderBy(desc(cleanupPolicies.createdAt));
  return rows.map((r) => toPolicy(r));
}

async function policyRow(db: Db, id: string): Promise<PolicyRow> {
  const [row] = await db.select().from(cleanupPolicies).where(eq(cleanupPolicies.id, id));
  if (!row) throw new NotFoundError(`No cleanup policy ${id}.`);
  return row;
}

/** A policy and what its next run would free if it ran now. */
export async function getPolicy(db: Db, id: string): Promise<{ policy: Policy; preview: CleanupPreview }> {
  const row = await policyRow(db, id);
  return { policy: toPolicy(row), preview: await previewRun(db, policyRequest(row)) };
}

export async function createPolicy(db: Db, body: CreatePolicyRequest, who: Who): Promise<Policy> {
  const [row] = await db.insert(cleanupPolicies).values({ ...columns(body), createdBy: who.actor.label ?? who.actor.type }).returning();
  await recordAudit(db, { actor: who.actor, action: "cleanup.policy_created", target: row.id, details: columns(body), ip: who.ip, userAgent: who.userAgent });
  return toPolicy(row);
}

/** Applies a partial change; the policy that results must pass the same checks as a new one (422 otherwise). */
export async function updatePolicy(db: Db, id: string, patch: UpdatePolicyRequest, who: Who): Promise<Policy> {
  const row = await policyRow(db, id);
  const merged = Object.fromEntries(Object.entries({ ...policyRequest(row), ...patch }).filter(([, v]) => v !== null && v !== undefined));
  const parsed = createPolicyRequest.safeParse(merged);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ValidationError(`The policy would not be valid: ${issues[0]?.path || "(root)"}: ${issues[0]?.message}`, { issues });
  }
  const [updated] = await db.update(cleanupPolicies).set({ ...columns(parsed.data), updatedAt: new Date() }).where(eq(cleanupPolicies.id, id)).returning();
  await recordAudit(db, { actor: who.actor, action: "cleanup.policy_updated", target: id, details: { name: updated.name, changes: patch }, ip: who.ip, userAgent: who.userAgent });
  return toPolicy(updated);
}

export async function deletePolicy(db: Db, id: string, who: Who): Promise<void> {
  const row = await policyRow(db, id);
  await db.delete(cleanupPolicies).where(eq(cleanupPolicies.id, id));
  await recordAudit(db, { actor: who.actor, action: "cleanup.policy_deleted", target: id, details: { name: row.name }, ip: who.ip, userAgent: who.userAgent });
}

/**
 * Queues a policy's run now (an admin's "run now", or the scheduler with the policy as actor). Policies need no
 * confirmation: their parameters were reviewed when they were saved.
 */
export async function runPolicy(db: Db, id: string, who: Who, now = new Date()): Promise<{ id: string; jobs: number }> {
  const row = await policyRow(db, id);
  const run = await createRun(db, policyRequest(row), who, { policyId: id });
  await db.update(cleanupPolicies).set({ lastRunAt: now, lastRunId: run.id }).where(eq(cleanupPolicies.id, id));
  return run;
}
