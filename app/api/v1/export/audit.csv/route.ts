import { exportResponse } from "@/lib/export/response";
import { auditExport } from "@/lib/export/audit";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { auditFilterQuery } from "@/lib/validations/audit";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/audit.csv?actor=&action=&from=&to= → the audit log as CSV (admin), newest first. */
export const GET = handle(async (request) => {
  return exportResponse(
    request,
    async (db) => {
      return auditExport(db, readQuery(request, auditFilterQuery));
    },
    "admin",
  );
});
