import { exportResponse } from "@/lib/export/response";
import { reporterVersionsExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/settings/reporter-versions.csv → CSV of the reporter rollout's versions, as Settings shows them (admin). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => reporterVersionsExport(db), "admin");
});
