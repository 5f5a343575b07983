import "server-only";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import { getRestartRisk, type AtRiskWorkspace, type LostRoot } from "@/lib/db/queries/restart-risk";
import type { WorkspaceScope } from "@/lib/db/scope";
import type { Db } from "@/lib/db/types";
import { utcDayOf } from "@/lib/series";
import type { RestartFilter } from "@/lib/validations/restart";

// The "Lost at restart" page as CSV: a row per folder lost (a workspace whose home is lost but whose report names
// no agent folder gets one row of its own), read by the same function as the page, with exact byte counts.

type Row = { ws: AtRiskWorkspace; root: LostRoot | null };

export const RESTART_RISK_COLUMNS: CsvColumn<Row>[] = [
  col("template", "text", (r) => r.ws.template),
  col("workspace_id", "text", (r) => r.ws.id),
  col("workspace", "text", (r) => r.ws.name),
  col("owner", "text", (r) => r.ws.owner),
  col("home_lost", "boolean", (r) => r.ws.homeLost),
  col("home", "text", (r) => r.ws.home),
  col("home_reason", "text", (r) => r.ws.homeReason),
  col("root", "text", (r) => r.root?.key),
  col("agent", "text", (r) => r.root?.agent),
  col("where", "text", (r) => r.root?.where),
  col("bytes", "integer", (r) => (r.root ? Number(r.root.bytes) : null)),
  col("session_bytes", "integer", (r) => (r.root ? Number(r.root.sessionBytes) : null)),
  col("holds_sessions", "boolean", (r) => r.root?.sessions),
];

export async function restartRiskExport(
  db: Db,
  scope: WorkspaceScope,
  filter: RestartFilter = {},
  now = new Date(),
): Promise<CsvExport<Row>> {
  const risk = await getRestartRisk(db, scope, filter);
  const rows = risk.templates.flatMap<Row>((t) =>
    t.atRisk.flatMap<Row>((ws) => (ws.lost.length ? ws.lost.map((root) => ({ ws, root })) : [{ ws, root: null }])),
  );
  return { filename: `lost-at-restart-${utcDayOf(now)}.csv`, columns: RESTART_RISK_COLUMNS, rows };
}
