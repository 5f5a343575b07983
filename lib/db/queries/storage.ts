import "server-only";
import { sql } from "drizzle-orm";
import { RETENTION_SETTINGS, type RetentionId } from "@/lib/validations/settings";
import { lastMaintenance, type MaintenanceResult } from "../maintenance-task";
import { rowsOf, type Db } from "../types";
import { getHorizons, getRetention, type Horizons } from "./retention";

export type TableSize = {
  table: string;
  /** pg_total_relation_size: heap, indexes and TOAST, summed over the table's partitions. */
  bytes: number;
  /** The planner's estimate (exact counts would read every table). */
  rows: number;
  /** Partitions (0 for a plain table). */
  partitions: number;
};

export type StorageSettings = {
  retention: { id: RetentionId; label: string; days: number; defaultDays: number; minDays: number; maxDays: number }[];
  horizons: Horizons;
  tables: TableSize[];
  totalBytes: number;
  lastMaintenance: MaintenanceResult | null;
};

/** The product's own tables and their sizes, largest first (partitions counted under their parent). */
export async function getTableSizes(db: Db): Promise<TableSize[]> {
  const rows = rowsOf<{ name: string; bytes: number; rows: number; partitions: number }>(
    await db.execute(sql`select coalesce(p.relname, c.relname) as name, sum(pg_total_relation_size(c.oid))::float8 as bytes,
        sum(greatest(c.reltuples, 0))::float8 as rows, count(p.oid)::int as partitions
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join pg_inherits i on i.inhrelid = c.oid left join pg_class p on p.oid = i.inhparent
      where n.nspname = current_schema() and c.relkind = 'r'
      group by 1 order by 2 desc, 1`),
  );
  return rows.map((r) => ({
    table: r.name,
    bytes: Number(r.bytes),
    rows: Number(r.rows),
    partitions: Number(r.partitions),
  }));
}

/** What the settings page and GET /api/v1/settings/storage show. */
export async function getStorageSettings(db: Db): Promise<StorageSettings> {
  const [days, horizons, tables, last] = await Promise.all([
    getRetention(db),
    getHorizons(db),
    getTableSizes(db),
    lastMaintenance(db),
  ]);
  return {
    retention: RETENTION_SETTINGS.map((s) => ({
      id: s.id,
      label: s.label,
      days: days[s.id],
      defaultDays: s.defaultDays,
      minDays: s.minDays,
      maxDays: s.maxDays,
    })),
    horizons,
    tables,
    totalBytes: tables.reduce((s, t) => s + t.bytes, 0),
    lastMaintenance: last,
  };
}
