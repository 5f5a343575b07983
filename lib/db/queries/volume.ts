import "server-only";
import { sql } from "drizzle-orm";
import type { RuleSet } from "@/lib/findings/rules";
import type { VolumeSummary } from "@/lib/format/volume";

/**
 * The home volume as `df -B1` and `df -i` show it. Use% is df's own: Used ÷ (Used + Avail), rounded up, so a
 * file system's root-reserved blocks (Size − Used − Avail) count neither as used nor as available; computed
 * once, in the workspaces table's generated columns. Reports from reporters before 0.2 carry only Size and
 * Avail: Used is then Size − Avail and inodes are unknown.
 */
export type { VolumeSummary };

/**
 * Used bytes of a stored volume (the workspaces or workspace_daily row `alias`), the one reading of the rule
 * that drizzle/functions/volume_used.sql applies at ingest: Used, or Size − Avail from reporters before 0.2.
 * Ingest stores the coalesced value; rows stored before it did (workspaces last written before 0015) still
 * hold null there, so the fallback stays until they are backfilled.
 */
const usedOf = (alias: string) =>
  `coalesce(${alias}.volume_used_bytes, ${alias}.volume_total_bytes - ${alias}.volume_free_bytes)`;
export const volumeUsed = (alias: string) => sql.raw(usedOf(alias));

/** The workspaces-table columns toVolume reads (alias `w`). */
export const volumeColumns = sql.raw(`w.volume_total_bytes::float8 as volume_total_bytes,
  w.volume_free_bytes::float8 as volume_free_bytes, ${usedOf("w")}::float8 as volume_used_bytes,
  w.volume_used_pct, w.volume_inodes_total::float8 as volume_inodes_total,
  w.volume_inodes_used::float8 as volume_inodes_used, w.volume_inodes_free::float8 as volume_inodes_free,
  w.volume_inodes_used_pct`);

export type VolumeColumns = {
  volume_total_bytes: number | null;
  volume_free_bytes: number | null;
  volume_used_bytes: number | null;
  volume_used_pct: number | null;
  volume_inodes_total: number | null;
  volume_inodes_used: number | null;
  volume_inodes_free: number | null;
  volume_inodes_used_pct: number | null;
};

export type FullThresholds = { usePercent: number | null; inodesPercent: number | null };

/** The full-volume thresholds in effect; a disabled rule flags nothing. */
export function fullThresholds(rules: RuleSet): FullThresholds {
  const space = rules["volume-full"];
  const inodes = rules["inodes-full"];
  return {
    usePercent: space.enabled ? space.params.usedPercent : null,
    inodesPercent: inodes.enabled ? inodes.params.usedPercent : null,
  };
}

export function toVolume(r: VolumeColumns, t: FullThresholds): VolumeSummary | null {
  if (
    r.volume_total_bytes === null ||
    r.volume_free_bytes === null ||
    r.volume_used_bytes === null ||
    r.volume_used_pct === null
  )
    return null;
  const size = Number(r.volume_total_bytes);
  const avail = Number(r.volume_free_bytes);
  const usePercent = Number(r.volume_used_pct);
  const iPct = r.volume_inodes_used_pct === null ? null : Number(r.volume_inodes_used_pct);
  return {
    sizeBytes: size,
    usedBytes: Number(r.volume_used_bytes),
    availBytes: avail,
    usePercent,
    inodes:
      iPct === null
        ? null
        : {
            total: Number(r.volume_inodes_total),
            used: Number(r.volume_inodes_used),
            free: Number(r.volume_inodes_free),
            usePercent: iPct,
          },
    full: t.usePercent !== null && usePercent >= t.usePercent,
    inodesFull: t.inodesPercent !== null && iPct !== null && iPct >= t.inodesPercent,
  };
}

/**
 * SQL conditions (alias `w`): the volume is out of space (Use% at the volume-full rule's threshold), out of inodes
 * (IUse% at the inodes-full rule's and not out of space: a volume out of both counts once, as out of space).
 * Never null, so they can be counted and sorted on.
 */
export function fullConditions(t: FullThresholds) {
  const space = t.usePercent === null ? sql`false` : sql`coalesce(w.volume_used_pct >= ${t.usePercent}, false)`;
  const inodes =
    t.inodesPercent === null ? sql`false` : sql`coalesce(w.volume_inodes_used_pct >= ${t.inodesPercent}, false)`;
  return { space, inodes: sql`(${inodes} and not ${space})` };
}

/** SQL condition (alias `w`): the volume counts as full by either rule. Never null, so it can be sorted on. */
export function fullCondition(t: FullThresholds) {
  const { space, inodes } = fullConditions(t);
  return sql`(${space} or ${inodes})`;
}
