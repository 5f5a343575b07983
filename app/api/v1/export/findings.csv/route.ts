import { exportResponse } from "@/lib/export/response";
import { findingsExport } from "@/lib/export/lists";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { findingsFilterQuery } from "@/lib/validations/findings";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/export/findings.csv?severity=&rule=&agent=&owner=&template=&workspace= → CSV of every row of the
 * findings page under its filters (identical findings of one workspace one row), most urgent first.
 */
export const GET = handle(async (request) => {
  return exportResponse(
    request,
    async (db, scope) => {
      const q = readQuery(request, findingsFilterQuery);
      return findingsExport(db, scope, q);
    },
    "member",
  );
});
