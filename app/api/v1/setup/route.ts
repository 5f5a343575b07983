import { checkSameSite } from "@/lib/auth/access";
import { requestOrigin } from "@/lib/auth/client-ip";
import { requireSetupOpen } from "@/lib/auth/users";
import { setupFirstAdmin } from "@/lib/services/users";
import { getDb } from "@/lib/db";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { setupRequest } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

/** POST /api/v1/setup { email, password, name? } → the first admin. 409 once any admin exists. */
export const POST = handle(async (request) => {
  checkSameSite(request);
  // Closed first: once an admin exists, nobody learns the body's schema or makes the server parse.
  const db = await getDb();
  await requireSetupOpen(db);
  const body = await readJson(request, setupRequest, 16 * 1024);
  const user = await setupFirstAdmin(db, body, {
    actor: { type: "anonymous", label: "setup" },
    ...requestOrigin(request.headers),
  });
  return json({ user }, { status: 201 });
});
