import { exportResponse } from "@/lib/export/response";
import { cleanupRunsExport } from "@/lib/export/cleanup";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/cleanup/runs.csv → CSV of every cleanup run, newest first, its jobs counted by state. */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => cleanupRunsExport(db));
});
