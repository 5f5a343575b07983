import "server-only";
import { describeSchedule, nextRunAt } from "@/lib/cleanup/schedule";
import type { PolicyRow } from "@/lib/db/queries/cleanup-policies";
import type { CreatePolicyRequest } from "@/lib/validations/cleanup";

// A policy as the API and its pages show it, and the run request it stands for.

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

/**
 * A policy's previews and runs take silent workspaces in, as they always did: a scheduled run's job waits for its
 * workspace's reporter (or expires) and the next turn tries again; the policy's preview flags them.
 */
export const POLICY_PREVIEW = { includeSilent: true } as const;

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

export function toPolicy(p: PolicyRow): Policy {
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
