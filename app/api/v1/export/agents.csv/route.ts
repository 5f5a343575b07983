import { exportResponse } from "@/lib/export/response";
import { agentsExport } from "@/lib/export/short-lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/agents.csv → CSV of the agents index: every agent and series with its storage, largest first. */
export const GET = handle(async (request) => {
  return exportResponse(request, (db) => agentsExport(db));
});
