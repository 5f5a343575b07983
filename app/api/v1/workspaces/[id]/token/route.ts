import { requireCaller } from "@/lib/auth/access";
import { resetWorkspaceToken } from "@/lib/services/enrollment";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** Admin reset: the workspace's token stops working and the workspace may enroll again with the fleet key. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, who } = await requireCaller(request, "admin");
  const { id } = await params;
  await resetWorkspaceToken({ db, who }, id);
  return json({ workspaceId: id, reset: true });
});
