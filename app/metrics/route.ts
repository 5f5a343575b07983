import { requireCaller } from "@/lib/auth/access";
import { handle } from "@/lib/http/response";
import { METRICS_CONTENT_TYPE, renderMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

/** GET /metrics: Prometheus text exposition, for a viewer (an API token as Authorization: Bearer). */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  return new Response(await renderMetrics(db), {
    headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" },
  });
});
