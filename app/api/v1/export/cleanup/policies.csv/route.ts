import { exportResponse } from "@/lib/export/response";
import { policiesExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/cleanup/policies.csv → CSV of every cleanup policy, as the Cleanup page lists them (viewer). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => policiesExport(db));
});
