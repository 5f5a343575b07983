import "server-only";
import { sql } from "drizzle-orm";
import { notDeleted } from "../deleted";
import { rowsOf, type Db } from "../types";

/** When the newest report of a live workspace was collected (the time of the data a fleet page shows), or null. */
export async function latestReportAt(db: Db): Promise<string | null> {
  const [row] = rowsOf<{ at: Date | string | null }>(
    await db.execute(sql`select max(w.last_collected_at) as at from workspaces w where ${notDeleted}`),
  );
  return row?.at ? new Date(row.at).toISOString() : null;
}
