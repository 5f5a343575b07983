import { requireCaller } from "@/lib/auth/access";
import { actingUserId } from "@/lib/auth/caller";
import { updateUser } from "@/lib/services/user-access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { updateUserRequest } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

/** PATCH /api/v1/users/{id} { role?, disabled? } → { user } (admin). 403 for oneself, 409 for the last active admin. */
export const PATCH = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, who } = await requireCaller(request, "admin");
  const body = await readJson(request, updateUserRequest, 4 * 1024);
  const { id } = await params;
  return json({ user: await updateUser(db, id, body, who, actingUserId(caller)) });
});
