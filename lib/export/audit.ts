import "server-only";
import { describeAuditDetails } from "@/lib/audit/describe";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import type { Db } from "@/lib/db";
import { auditRows, type AuditEntry } from "@/lib/db/queries/audit";
import { utcDayOf } from "@/lib/series";
import type { AuditFilters } from "@/lib/validations/audit";

export const AUDIT_COLUMNS: CsvColumn<AuditEntry>[] = [
  col("time", "time", (r) => r.at),
  col("id", "integer", (r) => r.id),
  col("actor_type", "text", (r) => r.actorType),
  col("actor_id", "text", (r) => r.actorId),
  col("actor", "text", (r) => r.actorLabel),
  col("action", "text", (r) => r.action),
  col("target", "text", (r) => r.target),
  col("target_name", "text", (r) => r.targetName?.label),
  col("details_text", "text", (r) => describeAuditDetails(r.action, r.details) || null),
  col("details", "text", (r) => (r.details ? JSON.stringify(r.details) : null)),
  col("ip", "text", (r) => r.ip),
  col("user_agent", "text", (r) => r.userAgent),
];

/** The audit log under the page's filters, newest first, read page by page by key as it streams. */
export function auditExport(db: Db, filters: AuditFilters, now = new Date()): CsvExport<AuditEntry> {
  return { filename: `audit-${utcDayOf(now)}.csv`, columns: AUDIT_COLUMNS, rows: auditRows(db, filters) };
}
