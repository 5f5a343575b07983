import { requireAdmin } from "@/lib/auth/admin";
import { getDb } from "@/lib/db";
import { getRules, rulesList, updateRules, type RulesResponse } from "@/lib/db/queries/findings";
import { rulesUpdateRequest, type RulesUpdateRequest } from "@/lib/findings/rules";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/findings/rules → RulesResponse (defaults with admins' changes applied) */
export const GET = handle(async () => {
  return json<RulesResponse>({ rules: rulesList(await getRules(await getDb())) });
});

/** PUT /api/v1/findings/rules { rules: [{ id, enabled?, severity?, params? }] } → RulesResponse. Admin only. */
export const PUT = handle(async (request) => {
  // Who is calling first: an anonymous client learns nothing about the schema and cannot make the server parse.
  requireAdmin(request);
  const body = (await readJson(request, rulesUpdateRequest, 64 * 1024)) as RulesUpdateRequest;
  return json<RulesResponse>({ rules: rulesList(await updateRules(await getDb(), body)) });
});
