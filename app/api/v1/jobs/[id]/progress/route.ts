import { requireWorkspace } from "@/lib/auth/access";
import { reportProgress } from "@/lib/services/cleanup-jobs";
import { readJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { idParam, progressRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** POST /api/v1/jobs/{id}/progress { leaseToken } (workspace token) → { leaseExpiresAt, cancelled }; 409 for a stale lease. */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, workspaceId } = await requireWorkspace(request);
  const { leaseToken } = await readJson(request, progressRequest, 4 * 1024);
  return machineJson(await reportProgress(db, workspaceId, idParam((await params).id, "cleanup job"), leaseToken));
});
