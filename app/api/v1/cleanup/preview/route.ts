import { requireCaller } from "@/lib/auth/access";
import { overlappingRuns, type PreviewAnswer } from "@/lib/db/queries/cleanup-overlap";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { activeKeeps } from "@/lib/db/queries/owner-cleanup";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { previewRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/cleanup/preview (body of a run) → PreviewAnswer: per workspace and in total, from the latest
 * reports, the runs of the same cleanup still under way on a workspace in scope, and the owners' Keeps on the
 * workspaces it lists (their jobs skip them). Admin. 409
 * `workspace_deleted` when the scope names a workspace deleted in Coder. A preview changes nothing, so it is not
 * audited (the run it leads to is).
 */
export const POST = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  const body = await readJson(request, previewRequest, 1024 * 1024);
  const [preview, overlapping] = await Promise.all([
    previewRun(db, body, { refuseDeleted: true, includeSilent: body.includeSilent }),
    overlappingRuns(db, body),
  ]);
  const kept = await activeKeeps(
    db,
    new Date(),
    preview.workspaces.map((w) => w.workspaceId),
  );
  return json<PreviewAnswer>({ ...preview, overlapping, kept });
});
