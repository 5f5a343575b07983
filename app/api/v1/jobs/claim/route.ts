import { getDb } from "@/lib/db";
import { claimJobs } from "@/lib/db/queries/cleanup-jobs";
import { authenticateWorkspace } from "@/lib/enrollment";
import { bearerToken } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import type { ClaimedJob } from "@/lib/cleanup/protocol";

export const dynamic = "force-dynamic";

/** POST /api/v1/jobs/claim (workspace token) → { jobs: ClaimedJob[] }: this workspace's waiting jobs, each with a new lease. */
export const POST = handle(async (request) => {
  const db = await getDb();
  const workspaceId = await authenticateWorkspace(db, bearerToken(request));
  return machineJson<{ jobs: ClaimedJob[] }>({ jobs: await claimJobs(db, workspaceId) });
});
