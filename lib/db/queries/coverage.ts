import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../types";

/**
 * How many of Coder's workspaces report: "4,812 of 5,000 Coder workspaces report; 188 don't". Coder's workspaces
 * are those a sync saw and not deleted; one reports once it sent a report. The ones that don't are the workspaces
 * table under `reporting=no` (and its CSV export).
 */
export type Coverage = { coder: number; reporting: number; notReporting: number };

/** Null until a sync has seen a workspace in Coder. */
export async function getCoverage(db: Db): Promise<Coverage | null> {
  const [r] = rowsOf<{ coder: number; reporting: number }>(
    await db.execute(sql`select count(*)::int as coder, count(last_collected_at)::int as reporting
      from workspaces where coder_synced_at is not null and deleted_at is null`),
  );
  const coder = Number(r.coder);
  if (coder === 0) return null;
  const reporting = Number(r.reporting);
  return { coder, reporting, notReporting: coder - reporting };
}
