import { getDb } from "@/lib/db";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/** GET /api/v1/fleet/overview?range=7d|30d|90d|custom&from=&to= → FleetOverview */
export const GET = handle(async (request) => {
  const params = readQuery(request, rangeQuery);
  return json(await getFleetOverview(await getDb(), params));
});
