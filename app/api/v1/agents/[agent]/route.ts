import { requireCaller } from "@/lib/auth/access";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { NotFoundError } from "@/lib/errors";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/agents/{agent}?range=&from=&to= → AgentDetail. A known agent without data answers 200 with
 * hasData: false; a slug neither known nor seen answers 404.
 */
export const GET = handle(async (request, { params }: { params: Promise<{ agent: string }> }) => {
  const { db } = await requireCaller(request, "viewer");
  const q = readQuery(request, rangeQuery);
  const { agent } = await params;
  const detail = await getAgentDetail(db, agent, q);
  if (!detail) throw new NotFoundError(`No agent "${agent}" is known or has reported data.`);
  return json(detail);
});
