import { auditActor, requireCaller } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/queries/audit";
import { resetWorkspaceToken } from "@/lib/enrollment";
import { NotFoundError } from "@/lib/errors";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** Admin reset: the workspace's token stops working and the workspace may enroll again with the fleet key. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const { id } = await params;
  if (!(await resetWorkspaceToken(db, id))) throw new NotFoundError(`Workspace ${id} has no token.`);
  await recordAudit(db, { actor: auditActor(caller), action: "workspace.token_reset", target: id, ip, userAgent });
  return json({ workspaceId: id, reset: true });
});
