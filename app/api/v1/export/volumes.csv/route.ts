import { exportResponse } from "@/lib/export/response";
import { volumesAtRiskExport } from "@/lib/export/lists";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { atRiskExportQuery } from "@/lib/validations/volumes";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/export/volumes.csv?days= → CSV of the volumes-at-risk page's table, every row: the volumes full or
 * forecast to fill within `days` (absent: the volume-filling rule's days), in the page's order, with why each fills.
 */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => volumesAtRiskExport(db, readQuery(request, atRiskExportQuery)));
});
