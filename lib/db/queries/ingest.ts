import "server-only";
import { sql } from "drizzle-orm";
import type { Report } from "@/lib/report/schema";
import { rowsOf, type Db } from "../types";


/** How far back the volume forecast looks: the last day values of this many days, plus the report itself. */
export const FORECAST_DAYS = 14;

export type IngestOutcome = "stored" | "stored_late" | "duplicate" | "conflict" | "not_enrolled";

/**
 * Stores a validated report through the database's ingest_report function (drizzle/0007_…sql): the volume and
 * the roots go as the report's own JSON and the function reads their fields by name.
 */
export async function callIngestReport(db: Db, r: Report, receivedAt: Date, shard: number): Promise<IngestOutcome> {
  const v = r.volume;
  const w = r.workspace;
  const [row] = rowsOf<{ outcome: IngestOutcome }>(
    await db.execute(sql`select ingest_report(${r.id}::uuid, ${w.id}::text, ${r.collectedAt}::timestamptz,
      ${receivedAt.toISOString()}::timestamptz, ${r.reporter.version}::text, ${r.reporter.scanMs}::real,
      ${v ? JSON.stringify(v) : null}::jsonb, ${JSON.stringify(r.errors ?? [])}::jsonb,
      ${JSON.stringify(r.roots)}::jsonb, ${w.name}::text, ${w.owner}::text, ${w.template ?? null}::text,
      ${w.agent ?? null}::text, ${shard}::smallint, ${FORECAST_DAYS}::int) as outcome`),
  );
  return row.outcome;
}
