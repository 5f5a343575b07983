import { requireCaller } from "@/lib/auth/access";
import { cleanupCatalog, type Catalog } from "@/lib/db/queries/cleanup-catalog";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/recipes → Catalog: recipes with default action and params, what each frees fleet-wide now, agents with no safe unit. */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  return json<Catalog>(await cleanupCatalog(db));
});
