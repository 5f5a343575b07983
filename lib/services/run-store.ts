import "server-only";
import { insertRun } from "@/lib/db/queries/cleanup-runs";
import { withTransaction, type AuditNote, type ChangeContext } from "./transaction";

/** Stores a run and its jobs in one transaction with its audit entry (the run's id its target, its jobs counted). */
export function storeRun(
  ctx: ChangeContext,
  run: Parameters<typeof insertRun>[1],
  jobs: Parameters<typeof insertRun>[2],
  note: AuditNote,
): Promise<{ id: string; jobs: number }> {
  return withTransaction(ctx, async ({ tx, who, audit }) => {
    const stored = await insertRun(tx, run, jobs, who);
    await audit({ ...note, target: stored.id, details: { ...note.details, jobs: stored.jobs } });
    return stored;
  });
}
