import "server-only";
import { inArray, sql } from "drizzle-orm";
import { NOTIFY_SETTINGS, type NotifySettingId, type NotifySettingsUpdate } from "@/lib/validations/notify-settings";
import { settings } from "../schema";
import type { Db } from "../types";

/** The values the Notifications page stored, by setting; a setting never saved, or no longer valid, is absent. */
export async function storedNotifySettings(db: Db): Promise<Partial<Record<NotifySettingId, number>>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(
      inArray(
        settings.key,
        NOTIFY_SETTINGS.map((s) => s.key),
      ),
    );
  const out: Partial<Record<NotifySettingId, number>> = {};
  for (const s of NOTIFY_SETTINGS) {
    const v = Number(rows.find((r) => r.key === s.key)?.value);
    if (Number.isInteger(v) && v >= s.min && v <= s.max) out[s.id] = v;
  }
  return out;
}

/** Stores the settings `update` names (the others keep their stored value). */
export async function saveNotifySettings(tx: Db, update: NotifySettingsUpdate): Promise<void> {
  for (const s of NOTIFY_SETTINGS) {
    const value = update[s.id];
    if (value === undefined) continue;
    await tx
      .insert(settings)
      .values({ key: s.key, value: String(value) })
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
  }
}
