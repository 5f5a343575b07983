import { requireCaller } from "@/lib/auth/access";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { ownerForToken } from "@/lib/auth/token-owner";
import { readJson } from "@/lib/http/request";
import { createApiToken } from "@/lib/services/api-tokens";
import { handle, json } from "@/lib/http/response";
import { createTokenRequest } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

/** GET /api/v1/tokens → { tokens } (admin; never the tokens themselves) */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json({ tokens: await listApiTokens(db) });
});

/** POST /api/v1/tokens { name, role, expiresInDays? } → { token, info } (admin). The token is shown this once. */
export const POST = handle(async (request) => {
  const { db, caller, who } = await requireCaller(request, "admin");
  const body = await readJson(request, createTokenRequest, 4 * 1024);
  const { token, info } = await createApiToken(db, await ownerForToken(db, caller), body, who);
  return json({ token, info }, { status: 201, headers: { "cache-control": "no-store" } });
});
