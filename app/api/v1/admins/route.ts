import { requireCaller } from "@/lib/auth/access";
import { adminEmails } from "@/lib/auth/users";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/admins → { emails }: the admins who can sign in, for a viewer's "ask an admin". */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "member");
  return json({ emails: await adminEmails(db) });
});
