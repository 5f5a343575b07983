// access: viewer
import { getDb } from "@/lib/db";
import { fleetExport } from "@/lib/export/fleet";
import { csvResponse } from "@/lib/http/csv";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/fleet.csv?range=&from=&to= → CSV of the fleet chart: bytes per day and series (agent). */
export const GET = handle(async (request) => {
  const q = readQuery(request, rangeQuery);
  return csvResponse(await fleetExport(await getDb(), "series", q));
});
