import { requireWorkspace } from "@/lib/auth/access";
import { claimJobs } from "@/lib/db/queries/cleanup-jobs";
import { handle, machineJson } from "@/lib/http/response";
import type { ClaimedJob } from "@/lib/cleanup/protocol";

export const dynamic = "force-dynamic";

/** POST /api/v1/jobs/claim (workspace token) → { jobs: ClaimedJob[] }: this workspace's waiting jobs, each with a new lease. */
export const POST = handle(async (request) => {
  const { db, workspaceId } = await requireWorkspace(request);
  return machineJson<{ jobs: ClaimedJob[] }>({ jobs: await claimJobs(db, workspaceId) });
});
