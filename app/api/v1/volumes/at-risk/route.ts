import { requireCaller } from "@/lib/auth/access";
import { getRules } from "@/lib/db/queries/findings";
import { volumesAtRiskPage, type AtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { atRiskQuery } from "@/lib/validations/volumes";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/volumes/at-risk?days=&after=&limit= → AtRiskPage: the volumes full or forecast to fill within
 * `days` (absent: the volume-filling rule's days), fewest days first, then least free space, a page at a time
 * by key (`next` is the following page's `after`); each with why it fills (volume-why.ts).
 */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  const q = readQuery(request, atRiskQuery);
  const rules = await getRules(db);
  const days = q.days ?? rules["volume-filling"].params.days;
  return json<AtRiskPage>(
    await volumesAtRiskPage(db, { rules, now: new Date(), days, limit: q.limit, after: q.after }),
  );
});
