import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { SCHEDULER_LOCK } from "@/lib/db/advisory-locks";
import { recordAudit } from "@/lib/db/queries/audit";
import { sweepJobs } from "@/lib/db/queries/cleanup-jobs";
import { policyRequest } from "@/lib/db/queries/cleanup-policies";
import { createRun } from "@/lib/db/queries/cleanup-runs";
import { cleanupPolicies } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { isDue } from "./schedule";

export const SCHEDULER_INTERVAL_MS = 5 * 60 * 1000;

export type Tick = { locked: boolean; started: { policyId: string; runId: string | null }[] };

/**
 * One scheduler pass: ends expired and lapsed jobs, then queues the run of every enabled policy that is due,
 * started by the policy. Runs under a transaction-scoped advisory lock (pg_try_advisory_xact_lock: released with
 * the transaction, so a pooled connection never keeps it), so of several instances ticking at once one works
 * and the others return at once.
 */
export async function runDuePolicies(db: Db, now = new Date()): Promise<Tick> {
  return db.transaction(async (tx) => {
    const [{ locked }] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${SCHEDULER_LOCK}) as locked`));
    if (!locked) return { locked: false, started: [] };
    await sweepJobs(tx, now);
    const policies = await tx.select().from(cleanupPolicies).where(and(eq(cleanupPolicies.enabled, true), ne(cleanupPolicies.schedule, "off")));
    const started: Tick["started"] = [];
    for (const p of policies.filter((x) => isDue(x, now))) {
      const actor = { type: "system" as const, label: `policy: ${p.name}` };
      let runId: string | null = null;
      try {
        runId = (await createRun(tx, policyRequest(p), { actor }, { policyId: p.id })).id;
      } catch (err) {
        // Nothing to clean up is not a failure: the policy waits for its next turn.
        if (!(err instanceof AppError)) throw err;
        await recordAudit(tx, { actor, action: "cleanup.policy_skipped", target: p.id, details: { reason: err.message } });
      }
      await tx.update(cleanupPolicies).set({ lastRunAt: now, lastRunId: runId ?? p.lastRunId }).where(eq(cleanupPolicies.id, p.id));
      started.push({ policyId: p.id, runId });
    }
    return { locked: true, started };
  });
}

const globalForScheduler = globalThis as unknown as { __cleanupScheduler?: ReturnType<typeof setInterval> };

/** Started once per server process from instrumentation.ts; STORAGE_CLEANUP_SCHEDULER=off turns it off. */
export function startCleanupScheduler(getDb: () => Promise<Db>): void {
  if (process.env.STORAGE_CLEANUP_SCHEDULER === "off" || globalForScheduler.__cleanupScheduler) return;
  const tick = async () => {
    try {
      const { started } = await runDuePolicies(await getDb());
      if (started.length) console.log(`[cleanup] queued ${started.filter((s) => s.runId).length} policy runs`);
    } catch (err) {
      console.error(`[cleanup] scheduler tick failed: ${(err as Error).message}`);
    }
  };
  globalForScheduler.__cleanupScheduler = setInterval(tick, SCHEDULER_INTERVAL_MS);
  globalForScheduler.__cleanupScheduler.unref?.();
  setTimeout(tick, 30_000).unref?.();
}
