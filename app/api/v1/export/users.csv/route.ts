import { exportResponse } from "@/lib/export/response";
import { usersExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/users.csv → CSV of every user, as the Users page lists them (admin). */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => usersExport(db), "admin");
});
