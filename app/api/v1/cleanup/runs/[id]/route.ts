import { requireCaller } from "@/lib/auth/access";
import { getRunDetail, type RunDetail } from "@/lib/db/queries/cleanup-views";
import { NotFoundError } from "@/lib/errors";
import { handle, json } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/runs/{id} → RunDetail: the run, its progress, its per-workspace jobs and their results. */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db } = await requireCaller(request, "viewer");
  const id = idParam((await params).id, "cleanup run");
  const detail = await getRunDetail(db, id);
  if (!detail) throw new NotFoundError(`No cleanup run ${id}.`);
  return json<RunDetail>(detail);
});
