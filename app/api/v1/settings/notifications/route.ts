import { requireCaller } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { notifySettingsView, updateNotifySettings, type NotifySettingView } from "@/lib/services/notify-settings";
import { notifySettingsUpdate, type NotifySettingsUpdate } from "@/lib/validations/notify-settings";

export const dynamic = "force-dynamic";

/** GET /api/v1/settings/notifications → { settings }: each notice setting in force and where it comes from (admin). */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json<{ settings: NotifySettingView[] }>({ settings: await notifySettingsView(db) });
});

/**
 * PUT /api/v1/settings/notifications { fillingDays?, fullPct?, digestHour?, maxPerHour? } → { settings } (admin,
 * audited). 422 when a value is out of its bounds, 409 when its environment variable is set (the variable wins);
 * either way nothing is stored. Takes effect at the next decision (thresholds, digest hour) or send (the cap).
 */
export const PUT = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  const body = (await readJson(request, notifySettingsUpdate, 4 * 1024)) as NotifySettingsUpdate;
  return json<{ settings: NotifySettingView[] }>({ settings: await updateNotifySettings({ db, who }, body) });
});
