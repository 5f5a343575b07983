import { exportResponse } from "@/lib/export/response";
import { usageExport } from "@/lib/export/usage";
import { readQueryLists } from "@/lib/http/csv";
import { handle } from "@/lib/http/response";
import { usageExportQuery } from "@/lib/validations/export";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/export/usage.csv?range=&from=&to=&granularity=daily|report&workspace=&owner=&template=&agent=&root=
 * → CSV, one row per workspace, root and day (or report).
 */
export const GET = handle(async (request) => {
  return exportResponse(
    request,
    async (db, scope) => {
      const q = readQueryLists(request, usageExportQuery);
      return usageExport(db, scope, q);
    },
    "member",
  );
});
