import { requireCaller } from "@/lib/auth/access";
import { getRunDetail, type RunDetail } from "@/lib/db/queries/cleanup-views";
import { NotFoundError } from "@/lib/errors";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { idParam, runJobsQuery } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/cleanup/runs/{id}?sort=&state=&cursor=&limit= → RunDetail: the run, its progress (jobs counted by
 * state) and one page of its jobs in that order, by key; nextCursor asks for the next page.
 */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db } = await requireCaller(request, "viewer");
  const id = idParam((await params).id, "cleanup run");
  const detail = await getRunDetail(db, id, readQuery(request, runJobsQuery));
  if (!detail) throw new NotFoundError(`No cleanup run ${id}.`);
  return json<RunDetail>(detail);
});
