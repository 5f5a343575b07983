import { auditActor, requireCaller } from "@/lib/auth/access";
import { createUser, listUsers } from "@/lib/auth/users";
import { recordAudit } from "@/lib/db/queries/audit";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { createUserRequest } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

/** GET /api/v1/users → { users } (admin) */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json({ users: await listUsers(db) });
});

/** POST /api/v1/users { email, role, name?, password? } → { user } (admin). Without a password: an invitation. */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, createUserRequest, 16 * 1024);
  const user = await createUser(db, body);
  await recordAudit(db, { actor: auditActor(caller), action: "user.created", target: user.email, details: { role: user.role, password: Boolean(body.password) }, ip, userAgent });
  return json({ user }, { status: 201 });
});
