import { requireCaller } from "@/lib/auth/access";
import { getRestartRisk } from "@/lib/db/queries/restart-risk";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/fleet/restart → RestartRisk: the workspaces that lose agent data at a restart, by template. */
export const GET = handle(async (request) => {
  const { db, caller } = await requireCaller(request, "viewer");
  return json(await getRestartRisk(db, caller.scope));
});
