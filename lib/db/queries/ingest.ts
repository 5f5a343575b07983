import "server-only";
import { sql } from "drizzle-orm";
import type { Report } from "@/lib/report-format/schema";
import { rowsOf, type Db } from "../types";

/** How far back the volume forecast looks: the last day values of this many days, plus the report itself. */
export const FORECAST_DAYS = 14;

export type IngestOutcome = "stored" | "stored_late" | "duplicate" | "conflict" | "not_enrolled" | "too_old";

export type IngestItem = { report: Report; receivedAt: Date };

/**
 * Stores validated reports through the database's ingest_reports function (drizzle/functions/ingest_reports.sql)
 * in one statement (one round trip, its own transaction) and returns each report's outcome in the order given. The
 * function marks the workspaces whose kept aggregates the reports changed (kept_pending), which are rewritten
 * after the acknowledgement (lib/ingest/kept-refresh.ts). The roots and the volume go as the report's own JSON
 * and the functions read their fields by name (ingest_roots, ingest_report_rows).
 */
export async function callIngestReports(db: Db, items: IngestItem[], shard: number): Promise<IngestOutcome[]> {
  const batch = items.map(({ report: r, receivedAt }) => ({
    id: r.id,
    workspace: r.workspace.id,
    collectedAt: r.collectedAt,
    receivedAt: receivedAt.toISOString(),
    reporterVersion: r.reporter.version,
    fellBackFrom: r.reporter.fellBackFrom, // left out when absent: SQL null
    scanMs: r.reporter.scanMs,
    volume: r.volume ?? null,
    errors: r.errors ?? [],
    agentRetention: r.agentRetention, // left out when absent: stored as SQL null, not JSON null
    home: r.home, // the same
    persistence: r.persistence, // likewise
    writesFailedNoSpace: r.writesFailedNoSpace, // likewise
    roots: r.roots,
    name: r.workspace.name,
    owner: r.workspace.owner,
    template: r.workspace.template ?? null,
    agent: r.workspace.agent ?? null,
  }));
  const rows = rowsOf<{ pos: number; outcome: IngestOutcome }>(
    await db.execute(sql`select pos, outcome from ingest_reports(${JSON.stringify(batch)}::jsonb,
      ${shard}::smallint, ${FORECAST_DAYS}::int)`),
  );
  const out: IngestOutcome[] = new Array(items.length);
  for (const r of rows) out[Number(r.pos) - 1] = r.outcome;
  return out;
}
