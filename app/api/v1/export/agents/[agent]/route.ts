import { exportResponse } from "@/lib/export/response";
import { NotFoundError } from "@/lib/errors";
import { agentWorkspacesExport } from "@/lib/export/lists";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/agents/{agent}.csv → CSV of every workspace with data of the agent, largest first. */
export const GET = handle(async (request, { params }: { params: Promise<{ agent: string }> }) => {
  return exportResponse(request, async (db) => {
    const segment = (await params).agent;
    if (!segment.endsWith(".csv")) throw new NotFoundError("Agent exports are named {agent}.csv.");
    return agentWorkspacesExport(db, segment.slice(0, -4));
  });
});
