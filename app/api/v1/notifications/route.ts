import { requireCaller } from "@/lib/auth/access";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { notificationsView } from "@/lib/services/notification-log";
import { notificationsQuery } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";

/** GET /api/v1/notifications?owner=&workspaceId=&kind=&channel=&status= → { channels, notices } (admin). */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json(await notificationsView(db, readQuery(request, notificationsQuery)));
});
