import { requireCaller } from "@/lib/auth/access";
import { getJobDetail, type JobDetail } from "@/lib/db/queries/cleanup-run-jobs";
import { NotFoundError } from "@/lib/errors";
import { handle, json } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/jobs/{id} → JobDetail: the job's result (the first entries of its unit, skip and error lists, and their counts). */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db } = await requireCaller(request, "viewer");
  const id = idParam((await params).id, "cleanup job");
  const detail = await getJobDetail(db, id);
  if (!detail) throw new NotFoundError(`No cleanup job ${id}.`);
  return json<JobDetail>(detail);
});
