import { requireWorkspace } from "@/lib/auth/access";
import { jobResult } from "@/lib/cleanup/protocol";
import { storeJobResult } from "@/lib/db/queries/cleanup-jobs";
import { readJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** Unit lists of a large job (100,000 units at most) with their paths. */
const RESULT_BODY_BYTES = 32 * 1024 * 1024;

/**
 * POST /api/v1/jobs/{id}/result (JobResult, workspace token) → { jobId, state, stored }. Stored once; a resend
 * under the same lease answers the same. 409 stale lease, 404 unknown job, 403 another workspace's job.
 */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, workspaceId } = await requireWorkspace(request);
  const id = idParam((await params).id, "cleanup job");
  const body = await readJson(request, jobResult, RESULT_BODY_BYTES);
  return machineJson(await storeJobResult(db, workspaceId, id, body));
});
