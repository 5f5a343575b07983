import { requireCaller } from "@/lib/auth/access";
import { listUsers } from "@/lib/auth/users";
import { createUser } from "@/lib/services/users";
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
  const { db, who } = await requireCaller(request, "admin");
  const body = await readJson(request, createUserRequest, 16 * 1024);
  const user = await createUser(db, body, who);
  return json({ user }, { status: 201 });
});
