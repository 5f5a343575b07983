import { exportResponse } from "@/lib/export/response";
import { notificationsExport } from "@/lib/export/notifications";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { noticeFilters } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/notifications.csv?q=&owner=&workspaceId=&kind=&channel=&status= → the last 30 days' notices (admin). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => notificationsExport(db, readQuery(request, noticeFilters)), "admin");
});
