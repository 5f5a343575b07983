import { requireCaller } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { rolloutView, updateRollout, type ReporterRolloutView } from "@/lib/services/reporter-rollout";
import { reporterRollout, type ReporterRollout } from "@/lib/validations/reporter-rollout";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/settings/reporter-rollout → { latest, rollout, versions }: the reporter version served, the
 * candidate and its share, and per version how many workspaces report with it, with errors, or fell back (admin).
 */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  return json<ReporterRolloutView>(await rolloutView(db));
});

/**
 * PUT /api/v1/settings/reporter-rollout { pinned, candidate } → the same view (admin, audited). 422 when a version
 * named is not one the dashboard holds. Takes effect at each workspace's next run.
 */
export const PUT = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  const body = (await readJson(request, reporterRollout, 16 * 1024)) as ReporterRollout;
  return json<ReporterRolloutView>(await updateRollout({ db, who }, body));
});
