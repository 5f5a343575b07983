import { requireCaller } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { callerOwner, noticePreferences, updateNoticePreferences } from "@/lib/services/notice-preferences";
import { noticePreferencesChange, type NoticePreferences } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";

/** GET /api/v1/me/notification-preferences → NoticePreferences of the signed-in owner. */
export const GET = handle(async (request) => {
  const { db, caller } = await requireCaller(request, "member");
  return json<NoticePreferences>(await noticePreferences(db, await callerOwner(db, caller)));
});

/** PUT /api/v1/me/notification-preferences { channels: { email?: { filling?: false, … }, webhook?: … } }. */
export const PUT = handle(async (request) => {
  const { db, caller, who } = await requireCaller(request, "member");
  const change = await readJson(request, noticePreferencesChange, 16 * 1024);
  return json<NoticePreferences>(await updateNoticePreferences(db, await callerOwner(db, caller), change, who));
});
