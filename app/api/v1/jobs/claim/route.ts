import { requireWorkspace } from "@/lib/auth/access";
import { claimJobs } from "@/lib/services/cleanup-jobs";
import { parseJson, readBody } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { claimRequest, type ClaimedJob } from "@/lib/cleanup/protocol";
import { validate } from "@/lib/validations/validate";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/jobs/claim (workspace token) { kinds? } → { jobs: ClaimedJob[] }: this workspace's waiting jobs,
 * each with a new lease; a truncate job only to a reporter whose claim names that kind. An empty body is `{}`.
 */
export const POST = handle(async (request) => {
  const { db, workspaceId } = await requireWorkspace(request);
  const body = await readBody(request, 4096);
  const { kinds = [] } = body.length ? validate(claimRequest, parseJson(body, request)) : {};
  return machineJson<{ jobs: ClaimedJob[] }>({ jobs: await claimJobs(db, workspaceId, new Date(), kinds) });
});
