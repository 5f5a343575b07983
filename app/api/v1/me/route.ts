import { requireCaller } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/me → the caller: { kind, id, label, role, scope } */
export const GET = handle(async (request) => {
  const { caller } = await requireCaller(request, "member");
  return json(caller);
});
