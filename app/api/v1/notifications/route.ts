import { requireCaller } from "@/lib/auth/access";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { notificationsView } from "@/lib/services/notification-log";
import { notificationsQuery } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/notifications?q=&owner=&workspaceId=&kind=&channel=&status=&cursor=&limit= → { channels, notices,
 * nextCursor } (admin): the last 30 days' notices, newest first, in keyset pages.
 */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json(await notificationsView(db, readQuery(request, notificationsQuery)));
});
