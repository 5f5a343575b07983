import { exportResponse } from "@/lib/export/response";
import { recipesExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/cleanup/recipes.csv → CSV of the cleanup recipes with what each frees fleet-wide now (viewer). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => recipesExport(db));
});
