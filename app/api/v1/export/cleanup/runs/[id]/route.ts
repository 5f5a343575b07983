import { exportResponse } from "@/lib/export/response";
import { NotFoundError } from "@/lib/errors";
import { cleanupRunExport } from "@/lib/export/cleanup";
import { handle } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/cleanup/runs/{id}.csv → CSV of every unit outcome, skip and error of the run's jobs. */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  return exportResponse(request, async (db) => {
    const segment = (await params).id;
    if (!segment.endsWith(".csv")) throw new NotFoundError(`No export ${segment}; a run's is <run id>.csv.`);
    return cleanupRunExport(db, idParam(segment.slice(0, -4), "cleanup run"));
  });
});
