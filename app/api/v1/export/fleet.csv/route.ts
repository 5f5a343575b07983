import { exportResponse } from "@/lib/export/response";
import { fleetExport } from "@/lib/export/fleet";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/fleet.csv?range=&from=&to= → CSV of the fleet chart: bytes per day and series (agent). */
export const GET = handle(async (request) => {
  return exportResponse(request, async (db) => {
    const q = readQuery(request, rangeQuery);
    return await fleetExport(db, "series", q);
  });
});
