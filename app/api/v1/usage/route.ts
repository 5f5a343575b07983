import { requireCaller } from "@/lib/auth/access";
import { getUsageReport } from "@/lib/db/queries/usage-report";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { usageQuery } from "@/lib/validations/usage";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/usage?dimension=organization|group|owner|template|agent&month=YYYY-MM (or &from=&to=) → UsageReport.
 * A member reads their own workspaces' rows only. 400: unknown_dimension, future_range, range_too_long, no_data.
 */
export const GET = handle(async (request) => {
  const { db, caller } = await requireCaller(request, "member");
  const q = readQuery(request, usageQuery);
  return json(await getUsageReport(db, caller.scope, q));
});
