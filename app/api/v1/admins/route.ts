import { requireCaller } from "@/lib/auth/access";
import { adminContacts } from "@/lib/auth/users";
import { handle, json } from "@/lib/http/response";
import { hasRole } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/admins → { admins: [{ name, email? }] }: the admins who can sign in, for a viewer's "ask an admin".
 * Their emails only to an admin.
 */
export const GET = handle(async (request) => {
  const { db, caller } = await requireCaller(request, "member");
  return json({ admins: await adminContacts(db, hasRole(caller.role, "admin")) });
});
