import { requireCaller } from "@/lib/auth/access";
import { rotateEnrollmentKey } from "@/lib/services/enrollment";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** POST /api/v1/enrollment-key/rotate → { rotated: true } (admin). The new key is shown on the Connect page. */
export const POST = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  await rotateEnrollmentKey({ db, who });
  return json({ rotated: true });
});
