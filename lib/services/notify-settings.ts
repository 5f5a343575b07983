import "server-only";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { saveNotifySettings, storedNotifySettings } from "@/lib/db/queries/notify-settings";
import { ConflictError } from "@/lib/errors";
import {
  NOTIFY_SETTINGS,
  type NotifySetting,
  type NotifySettings,
  type NotifySettingsUpdate,
} from "@/lib/validations/notify-settings";
import { withTransaction, type ChangeContext } from "./transaction";

/** One setting as the page shows it: its value in force and where that value comes from. */
export type NotifySettingView = NotifySetting & {
  value: number;
  /** "env": its variable is set and wins (read-only on the page); "stored": an admin saved it; else the default. */
  source: "env" | "stored" | "default";
};

/** Each setting's value in force: the variable when set, else the stored value, else the default. */
export async function notifySettingsView(db: Db, notify: NotifyConfig = config().notify): Promise<NotifySettingView[]> {
  const stored = await storedNotifySettings(db);
  return NOTIFY_SETTINGS.map((s) => {
    const fromEnv = notify.thresholds[s.id];
    if (fromEnv !== undefined) return { ...s, value: fromEnv, source: "env" };
    const saved = stored[s.id];
    return saved !== undefined
      ? { ...s, value: saved, source: "stored" }
      : { ...s, value: s.defaultValue, source: "default" };
  });
}

/** The values in force, as the decisions and the sender use them. */
export async function notifySettingsInForce(db: Db, notify: NotifyConfig = config().notify): Promise<NotifySettings> {
  const view = await notifySettingsView(db, notify);
  return Object.fromEntries(view.map((s) => [s.id, s.value])) as NotifySettings;
}

/**
 * Stores an admin's changes and returns the settings in force. A setting whose variable is set is refused (409,
 * nothing stored): the variable would still win, and the page would show a value that is not used.
 */
export async function updateNotifySettings(
  ctx: ChangeContext,
  update: NotifySettingsUpdate,
  notify: NotifyConfig = config().notify,
): Promise<NotifySettingView[]> {
  const pinned = NOTIFY_SETTINGS.filter((s) => update[s.id] !== undefined && notify.thresholds[s.id] !== undefined);
  if (pinned.length)
    throw new ConflictError(
      `Set in the environment, so not changed here: ${pinned.map((s) => s.env).join(", ")}. Unset the variable to edit it on the page.`,
    );
  return withTransaction(ctx, async ({ tx, audit }) => {
    await saveNotifySettings(tx, update);
    const changed = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined));
    await audit({ action: "settings.notifications_changed", details: changed });
    return notifySettingsView(tx, notify);
  });
}
