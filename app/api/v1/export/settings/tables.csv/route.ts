import { exportResponse } from "@/lib/export/response";
import { tableSizesExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/settings/tables.csv → CSV of the database's tables with their sizes and rows, as Settings shows them (viewer). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => tableSizesExport(db));
});
