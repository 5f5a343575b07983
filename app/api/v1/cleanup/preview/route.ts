import { auditActor, requireCaller } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/queries/audit";
import { previewRun, type CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { previewRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** POST /api/v1/cleanup/preview (body of a run) → CleanupPreview: per workspace and in total, from the latest reports. Admin. */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, previewRequest, 1024 * 1024);
  const preview = await previewRun(db, body);
  await recordAudit(db, {
    actor: auditActor(caller), action: "cleanup.previewed", target: body.recipe ?? body.custom?.rootKey ?? null,
    details: { params: body.params, bytes: preview.total.bytes, workspaces: preview.total.workspaces, withoutUsage: preview.withoutUsage.count }, ip, userAgent,
  });
  return json<CleanupPreview>(preview);
});
