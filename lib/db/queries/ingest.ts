import "server-only";
import { sql } from "drizzle-orm";
import type { Report } from "@/lib/report-format/schema";
import { rowsOf, type Db } from "../types";
import { getRules } from "./findings";
import { lockKeptShared, rewriteKeptWorkspaces } from "./kept-findings";
import { rewriteWorkspaceGrowth } from "./root-growth";
import { rewriteWorkspaceSeries } from "./workspace-series";

/** How far back the volume forecast looks: the last day values of this many days, plus the report itself. */
export const FORECAST_DAYS = 14;

export type IngestOutcome = "stored" | "stored_late" | "duplicate" | "conflict" | "not_enrolled" | "too_old";

export type IngestItem = { report: Report; receivedAt: Date };

/**
 * Stores validated reports through the database's ingest_reports function (drizzle/functions/ingest_reports.sql)
 * in one call and one transaction (with the kept findings of the workspaces it changed), and returns each report's outcome in the order given. The roots and the volume
 * go as the report's own JSON and the functions read their fields by name (ingest_roots, ingest_report_rows).
 */
export async function callIngestReports(db: Db, items: IngestItem[], shard: number): Promise<IngestOutcome[]> {
  const batch = items.map(({ report: r, receivedAt }) => ({
    id: r.id,
    workspace: r.workspace.id,
    collectedAt: r.collectedAt,
    receivedAt: receivedAt.toISOString(),
    reporterVersion: r.reporter.version,
    scanMs: r.reporter.scanMs,
    volume: r.volume ?? null,
    errors: r.errors ?? [],
    agentRetention: r.agentRetention, // left out when absent: stored as SQL null, not JSON null
    roots: r.roots,
    name: r.workspace.name,
    owner: r.workspace.owner,
    template: r.workspace.template ?? null,
    agent: r.workspace.agent ?? null,
  }));
  return db.transaction(async (tx) => {
    await lockKeptShared(tx);
    const rows = rowsOf<{ pos: number; outcome: IngestOutcome }>(
      await tx.execute(sql`select pos, outcome from ingest_reports(${JSON.stringify(batch)}::jsonb,
        ${shard}::smallint, ${FORECAST_DAYS}::int)`),
    );
    const out: IngestOutcome[] = new Array(items.length);
    for (const r of rows) out[Number(r.pos) - 1] = r.outcome;
    // A workspace's newest report replaced its latest roots: its kept findings, series and growth change with them, in
    // this transaction. A late report changes history only, which the growth since a past day may read.
    const newest = new Set(batch.filter((_, i) => out[i] === "stored").map((b) => b.workspace));
    const late = batch.filter((_, i) => out[i] === "stored_late").map((b) => b.workspace);
    await rewriteKeptWorkspaces(tx, await getRules(tx), [...newest]);
    await rewriteWorkspaceSeries(tx, [...newest]);
    await rewriteWorkspaceGrowth(tx, [...new Set([...newest, ...late])]);
    return out;
  });
}
