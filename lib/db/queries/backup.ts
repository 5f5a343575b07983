import "server-only";
import { sql } from "drizzle-orm";
import { settings } from "../schema";
import type { Db } from "../types";
import { getSetting } from "./settings";

/** The last scheduled backup that succeeded: the settings page and the metric read it. */
export type LastBackup = { at: string; file: string; bytes: number; ms: number };

const LAST_BACKUP_KEY = "backup.last_success";

export async function getLastBackup(db: Db): Promise<LastBackup | null> {
  const value = await getSetting(db, LAST_BACKUP_KEY);
  return value ? (JSON.parse(value) as LastBackup) : null;
}

export async function recordLastBackup(db: Db, backup: LastBackup): Promise<void> {
  await db
    .insert(settings)
    .values({ key: LAST_BACKUP_KEY, value: JSON.stringify(backup) })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
}
