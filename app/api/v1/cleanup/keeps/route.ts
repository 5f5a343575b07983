import { requireCaller } from "@/lib/auth/access";
import { activeKeeps } from "@/lib/db/queries/owner-cleanup";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/keeps → { keeps }: every Keep in force, its workspace, owner and expiry. Admin. */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json({ keeps: await activeKeeps(db, new Date()) });
});
