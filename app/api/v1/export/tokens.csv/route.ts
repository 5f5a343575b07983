import { exportResponse } from "@/lib/export/response";
import { tokensExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/tokens.csv → CSV of every API token (never the token itself), as the Users page lists them (admin). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => tokensExport(db), "admin");
});
