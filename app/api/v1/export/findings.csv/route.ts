// access: viewer
import { getDb } from "@/lib/db";
import { findingsExport } from "@/lib/export/lists";
import { csvResponse } from "@/lib/http/csv";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { findingsQuery } from "@/lib/validations/findings";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/findings.csv?workspace=&rule=&severity= → CSV of every finding (no limit), most urgent first. */
export const GET = handle(async (request) => {
  const q = readQuery(request, findingsQuery);
  return csvResponse(findingsExport(await getDb(), q));
});
