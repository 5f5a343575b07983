import { requireWorkspace } from "@/lib/auth/access";
import { handle, machineJson } from "@/lib/http/response";
import { receiveJobResult } from "@/lib/services/job-results";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/jobs/{id}/result (JobResult, workspace token, lease in X-Lease-Token) → { jobId, state, stored }.
 * Stored once; a resend under the same lease answers the same. 409 stale lease, 404 unknown job, 403 another
 * workspace's job: all answered before the body is read.
 */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, workspaceId } = await requireWorkspace(request);
  return machineJson(await receiveJobResult(db, workspaceId, idParam((await params).id, "cleanup job"), request));
});
