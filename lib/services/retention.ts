import "server-only";
import { getRetention, lockRetentionSettings, saveRetention } from "@/lib/db/queries/retention";
import { ValidationError } from "@/lib/errors";
import { retentionProblem, type RetentionDays, type RetentionUpdate } from "@/lib/validations/settings";
import { withTransaction, type ChangeContext } from "./transaction";

/** Applies an admin's changes and returns the settings in effect; 422 when the result would be inconsistent. */
export function updateRetention(ctx: ChangeContext, update: RetentionUpdate): Promise<RetentionDays> {
  return withTransaction(ctx, async ({ tx, audit }) => {
    // Serialises concurrent edits, so the consistency check sees the other's result.
    await lockRetentionSettings(tx);
    const next = {
      ...(await getRetention(tx)),
      ...Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined)),
    };
    const problem = retentionProblem(next);
    if (problem) throw new ValidationError(problem);
    await saveRetention(tx, update);
    await audit({ action: "settings.retention_changed", details: { ...update } });
    return next;
  });
}
