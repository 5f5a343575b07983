import { requireCaller } from "@/lib/auth/access";
import { getRulesView, type RulesResponse } from "@/lib/db/queries/findings";
import { updateRules } from "@/lib/services/finding-rules";
import { rulesUpdateRequest, type RulesUpdateRequest } from "@/lib/findings/rules";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/findings/rules → RulesResponse (defaults with admins' changes applied, and stored changes ignored) */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "member");
  return json<RulesResponse>(await getRulesView(db));
});

/** PUT /api/v1/findings/rules { rules: [{ id, enabled?, severity?, params? }] } → RulesResponse. Admin only. */
export const PUT = handle(async (request) => {
  // Who is calling first: an anonymous client learns nothing about the schema and cannot make the server parse.
  const { db, who } = await requireCaller(request, "admin");
  const body = (await readJson(request, rulesUpdateRequest, 64 * 1024)) as RulesUpdateRequest;
  return json<RulesResponse>(await updateRules(db, body, who));
});
