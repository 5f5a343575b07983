import { requireCaller } from "@/lib/auth/access";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/** GET /api/v1/fleet/overview?range=7d|30d|90d|custom&from=&to= → FleetOverview */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  const params = readQuery(request, rangeQuery);
  return json(await getFleetOverview(db, params));
});
