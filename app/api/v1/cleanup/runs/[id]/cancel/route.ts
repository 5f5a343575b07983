import { auditActor, requireCaller } from "@/lib/auth/access";
import { cancelRun } from "@/lib/services/cleanup-runs";
import { handle, json } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** POST /api/v1/cleanup/runs/{id}/cancel → { cancelled, stopping }: queued jobs cancelled, running ones told to stop. Admin. */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const id = idParam((await params).id, "cleanup run");
  return json(await cancelRun(db, id, { actor: auditActor(caller), ip, userAgent }));
});
