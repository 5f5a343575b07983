import { exportResponse } from "@/lib/export/response";
import { restartRiskExport } from "@/lib/export/restart-risk";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { restartExportQuery } from "@/lib/validations/restart";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/export/restart.csv?template=&workspace= → CSV of the "Lost at restart" page: one row per folder
 * lost, by template; of one template or one workspace when asked.
 */
export const GET = handle(async (request) => {
  return exportResponse(request, (db, scope) => restartRiskExport(db, scope, readQuery(request, restartExportQuery)));
});
