import "server-only";
import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { isoOrNull } from "@/lib/series";
import { RETENTION_SETTINGS, type RetentionId } from "@/lib/validations/settings";
import { lastMaintenance, type MaintenanceResult } from "../maintenance-task";
import { rowsOf, type Db } from "../types";
import { getHorizons, getRetention, type Horizons } from "./retention";
import { getLastBackup, type LastBackup } from "./backup";
import { getSyncState, type CoderSyncState } from "./coder-sync";

export type TableSize = {
  table: string;
  /** pg_total_relation_size: heap, indexes and TOAST, summed over the table's partitions. */
  bytes: number;
  /** An exact count for a table up to EXACT_COUNT_MAX_BYTES; above, the planner's estimate as of `estimatedAt`. */
  rows: number;
  exact: boolean;
  /**
   * When the estimate was made: the table's last ANALYZE (manual or automatic), for a partitioned table its
   * least recently analysed partition's. Null when the count is exact, or when no ANALYZE has run yet.
   */
  estimatedAt: string | null;
  /** Partitions (0 for a plain table). */
  partitions: number;
};

/**
 * Tables up to this size are counted exactly: a count over a few MiB takes milliseconds. Larger ones (the
 * history's) would be read whole for a figure an estimate gives well enough, said to be one, with its age.
 */
const EXACT_COUNT_MAX_BYTES = 32 * 1024 ** 2;

export type StorageSettings = {
  retention: { id: RetentionId; label: string; days: number; defaultDays: number; minDays: number; maxDays: number }[];
  horizons: Horizons;
  tables: TableSize[];
  totalBytes: number;
  /** Tables up to this size have exact row counts. */
  exactCountMaxBytes: number;
  lastMaintenance: MaintenanceResult | null;
  /** The last workspace sync from Coder: its time, counts and error (null when none ran). */
  coderSync: CoderSyncState | null;
  /** The last scheduled backup written whole; `scheduled`: STORAGE_BACKUP_DIR is set. */
  backup: { scheduled: boolean; keep: number | null; last: LastBackup | null };
};

/** The product's own tables and their sizes, largest first (partitions counted under their parent). */
export async function getTableSizes(db: Db, exactCountMaxBytes = EXACT_COUNT_MAX_BYTES): Promise<TableSize[]> {
  // The catalog's sizes (pg_class, pg_total_relation_size) and exact counts of tables named at run time: SQL through
  // db.execute.
  // reltuples is -1 until a table's first ANALYZE: such a table (or partition) makes the estimate unknown.
  const tables = rowsOf<{
    name: string;
    bytes: number;
    rows: number;
    partitions: number;
    never_analysed: boolean;
    analysed_at: Date | string | null;
  }>(
    await db.execute(sql`select coalesce(p.relname, c.relname) as name, sum(pg_total_relation_size(c.oid))::float8 as bytes,
        sum(greatest(c.reltuples, 0))::float8 as rows, count(p.oid)::int as partitions,
        bool_or(c.reltuples < 0) as never_analysed,
        min(greatest(s.last_analyze, s.last_autoanalyze)) as analysed_at
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join pg_stat_user_tables s on s.relid = c.oid
      left join pg_inherits i on i.inhrelid = c.oid left join pg_class p on p.oid = i.inhparent
      where n.nspname = current_schema() and c.relkind = 'r'
      group by 1 order by 2 desc, 1`),
  );
  return Promise.all(
    tables.map(async (t) => {
      const base = { table: t.name, bytes: Number(t.bytes), partitions: Number(t.partitions) };
      if (base.bytes <= exactCountMaxBytes) {
        const [{ n }] = rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::float8 as n from ${sql.identifier(t.name)}`),
        );
        return { ...base, rows: Number(n), exact: true, estimatedAt: null };
      }
      return {
        ...base,
        rows: Number(t.rows),
        exact: false,
        estimatedAt: t.never_analysed ? null : isoOrNull(t.analysed_at),
      };
    }),
  );
}

/** What the settings page and GET /api/v1/settings/storage show. */
export async function getStorageSettings(db: Db): Promise<StorageSettings> {
  const [days, horizons, tables, last, coderSync, lastBackup] = await Promise.all([
    getRetention(db),
    getHorizons(db),
    getTableSizes(db),
    lastMaintenance(db),
    getSyncState(db),
    getLastBackup(db),
  ]);
  const scheduled = config().backup;
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
    exactCountMaxBytes: EXACT_COUNT_MAX_BYTES,
    lastMaintenance: last,
    coderSync,
    backup: { scheduled: scheduled !== null, keep: scheduled?.keep ?? null, last: lastBackup },
  };
}
