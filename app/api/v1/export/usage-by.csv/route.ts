import { exportResponse } from "@/lib/export/response";
import { usageByExport } from "@/lib/export/usage-by";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { usageQuery } from "@/lib/validations/usage";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/export/usage-by.csv?dimension=&month= (or &from=&to=) → CSV of the usage page's table: one row per
 * organization, group, owner, template or agent, and the total.
 */
export const GET = handle(async (request) => {
  return exportResponse(request, (db, scope) => usageByExport(db, scope, readQuery(request, usageQuery)), "member");
});
