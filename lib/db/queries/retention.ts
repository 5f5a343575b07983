import "server-only";
import { inArray, like, sql } from "drizzle-orm";
import { daysBetween, type Day } from "@/lib/series";
import { RETENTION_SETTINGS, type RetentionDays, type RetentionUpdate } from "@/lib/validations/settings";
import { RETENTION_SETTINGS_LOCK } from "../advisory-locks";
import { settings } from "../schema";
import type { Db } from "../types";

/**
 * Where expired history ends, written by the maintenance task when it expires: raw reports collected before
 * `raw` are gone (ingest refuses them, ingest_reports reads this key), daily roll-ups before `rollups` are
 * folded into a baseline (charts start there). Null until the first expiry.
 */
export const HORIZON_KEYS = { raw: "retention.raw_horizon", rollups: "retention.rollup_horizon" } as const;

export type Horizons = { raw: string | null; rollups: Day | null };

export async function getRetention(db: Db): Promise<RetentionDays> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(like(settings.key, "retention.%"));
  const stored = new Map(rows.map((r) => [r.key, Number(r.value)]));
  return Object.fromEntries(
    RETENTION_SETTINGS.map((s) => [s.id, Number.isInteger(stored.get(s.key)) ? stored.get(s.key)! : s.defaultDays]),
  ) as RetentionDays;
}

/** Serialises edits of the retention settings until the transaction ends. */
export async function lockRetentionSettings(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RETENTION_SETTINGS_LOCK})`);
}

/** Stores the settings `update` names (the others keep their stored value). */
export async function saveRetention(tx: Db, update: RetentionUpdate): Promise<void> {
  for (const s of RETENTION_SETTINGS) {
    const days = update[s.id];
    if (days === undefined) continue;
    await tx
      .insert(settings)
      .values({ key: s.key, value: String(days) })
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
  }
}

export async function getHorizons(db: Db): Promise<Horizons> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [HORIZON_KEYS.raw, HORIZON_KEYS.rollups]));
  const get = (k: string) => rows.find((r) => r.key === k)?.value ?? null;
  return { raw: get(HORIZON_KEYS.raw), rollups: get(HORIZON_KEYS.rollups) as Day | null };
}

/** Moves a horizon forward (never back: what expired stays expired when a retention is raised). */
export async function advanceHorizon(
  db: Db,
  key: string,
  value: string,
  cast: "timestamptz" | "date",
): Promise<string> {
  const castSql = sql.raw(cast);
  const [row] = await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({
      target: settings.key,
      set: {
        updatedAt: sql`now()`,
        value: sql`case when settings.value::${castSql} < excluded.value::${castSql} then excluded.value else settings.value end`,
      },
    })
    .returning({ value: settings.value });
  return row.value;
}

/**
 * A chart's range starts no earlier than the roll-ups' horizon: days before it have been expired (their changes
 * are folded into one baseline row, so a level there would read as 0, not as unknown).
 */
export function clampToRollups<R extends { from: Day; to: Day; days: number }>(range: R, horizon: Day | null): R {
  if (!horizon || range.from >= horizon) return range;
  const from = horizon > range.to ? range.to : horizon;
  return { ...range, from, days: daysBetween(from, range.to) + 1 };
}
