// access: viewer
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { agentWorkspacesExport } from "@/lib/export/lists";
import { csvResponse } from "@/lib/http/csv";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/agents/{agent}.csv → CSV of every workspace with data of the agent, largest first. */
export const GET = handle(async (_request, { params }: { params: Promise<{ agent: string }> }) => {
  const segment = (await params).agent;
  if (!segment.endsWith(".csv")) throw new NotFoundError("Agent exports are named {agent}.csv.");
  return csvResponse(agentWorkspacesExport(await getDb(), segment.slice(0, -4)));
});
