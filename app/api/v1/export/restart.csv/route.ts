import { exportResponse } from "@/lib/export/response";
import { restartRiskExport } from "@/lib/export/restart-risk";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/restart.csv → CSV of the "Lost at restart" page: one row per folder lost, by template. */
export const GET = handle(async (request) => {
  return exportResponse(request, (db, scope) => restartRiskExport(db, scope));
});
