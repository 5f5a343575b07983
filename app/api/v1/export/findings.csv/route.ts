import { exportResponse } from "@/lib/export/response";
import { findingsExport } from "@/lib/export/lists";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { findingsQuery } from "@/lib/validations/findings";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/findings.csv?workspace=&rule=&severity= → CSV of every finding (no limit), most urgent first. */
export const GET = handle(async (request) => {
  return exportResponse(request, async (db) => {
    const q = readQuery(request, findingsQuery);
    return findingsExport(db, q);
  });
});
