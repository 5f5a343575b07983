import "server-only";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { recordAudit } from "@/lib/db/queries/audit";
import { sweepJobs } from "./cleanup-jobs";
import { scheduledPolicies, setPolicy, trySchedulerLock } from "@/lib/db/queries/cleanup-policies";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { AppError } from "@/lib/errors";
import { isRunaway, RUNAWAY_FACTOR } from "@/lib/cleanup/confirmation";
import { isDue } from "@/lib/cleanup/schedule";
import { createRun } from "./cleanup-runs";
import { mayAct, POLICY_PREVIEW, policyRequest } from "./policy-view";

/**
 * What a due policy's turn became: its run ("run"); a dry run, because no admin confirmed its figure yet
 * ("dry-run"); nothing, because its preview ran far above the confirmed figure ("held") or selects nothing
 * ("skipped").
 */
export type Outcome = "run" | "dry-run" | "held" | "skipped";
export type Tick = { locked: boolean; started: { policyId: string; runId: string | null; outcome: Outcome }[] };

/**
 * One scheduler pass: ends expired and lapsed jobs, then takes every enabled policy that is due, started by the
 * policy. A policy never removes anything before an admin confirmed its figure: until then its turn is a dry run.
 * A held policy waits for a new confirmation. Runs under a transaction-scoped advisory lock
 * (trySchedulerLock: released with the transaction, so a pooled connection never keeps it), so of
 * several instances ticking at once one works and the others return at once.
 */
export async function runDuePolicies(db: Db, now = new Date()): Promise<Tick> {
  return db.transaction(async (tx) => {
    if (!(await trySchedulerLock(tx))) return { locked: false, started: [] };
    await sweepJobs(tx, now);
    const policies = await scheduledPolicies(tx);
    const started: Tick["started"] = [];
    for (const p of policies.filter((x) => isDue(x, now))) {
      const actor = { type: "system" as const, label: `policy: ${p.name}` };
      const request = policyRequest(p);
      const preview = await previewRun(tx, request, { ...POLICY_PREVIEW, listAll: true, now });
      let runId: string | null = null;
      let outcome: Outcome = mayAct(p) ? "run" : "dry-run";
      const confirmed = { bytes: p.confirmedBytes ?? 0, workspaces: p.confirmedWorkspaces ?? 0 };
      if (outcome === "run" && !p.dryRun && isRunaway(preview.total, confirmed)) {
        outcome = "held";
        await setPolicy(tx, p.id, {
          heldAt: now,
          heldBytes: preview.total.bytes,
          heldWorkspaces: preview.total.workspaces,
        });
        await recordAudit(tx, {
          actor,
          action: "cleanup.policy_held",
          target: p.id,
          details: {
            preview: { bytes: preview.total.bytes, workspaces: preview.total.workspaces },
            confirmed,
            factor: RUNAWAY_FACTOR,
          },
        });
      } else {
        try {
          const dryRun = outcome === "dry-run" || request.dryRun;
          runId = (
            await createRun(
              tx,
              { ...request, dryRun },
              { actor },
              { policyId: p.id, preview, audit: { awaitingConfirmation: outcome === "dry-run" } },
            )
          ).id;
        } catch (err) {
          // Nothing to clean up is not a failure: the policy waits for its next turn.
          if (!(err instanceof AppError)) throw err;
          outcome = "skipped";
          await recordAudit(tx, {
            actor,
            action: "cleanup.policy_skipped",
            target: p.id,
            details: { reason: err.message },
          });
        }
      }
      await setPolicy(tx, p.id, { lastRunAt: now, lastRunId: runId ?? p.lastRunId });
      started.push({ policyId: p.id, runId, outcome });
    }
    return { locked: true, started };
  });
}

const globalForScheduler = globalThis as unknown as { __cleanupScheduler?: ReturnType<typeof setInterval> };

/**
 * Started once per server process from instrumentation.ts; STORAGE_CLEANUP_SCHEDULER=off turns it off. It looks
 * for due policies every STORAGE_CLEANUP_SCHEDULER_INTERVAL seconds (300 by default).
 */
export function startCleanupScheduler(getDb: () => Promise<Db>): void {
  const { enabled, intervalMs: every } = config().cleanupScheduler;
  if (!enabled || globalForScheduler.__cleanupScheduler) return;
  const tick = async () => {
    try {
      const { started } = await runDuePolicies(await getDb());
      for (const s of started)
        console.log(`[cleanup] policy ${s.policyId}: ${s.outcome}${s.runId ? ` (run ${s.runId})` : ""}`);
    } catch (err) {
      console.error(`[cleanup] scheduler tick failed: ${(err as Error).message}`);
    }
  };
  globalForScheduler.__cleanupScheduler = setInterval(tick, every);
  globalForScheduler.__cleanupScheduler.unref?.();
  setTimeout(tick, Math.min(30_000, every)).unref?.();
}
