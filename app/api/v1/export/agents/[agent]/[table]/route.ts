import { exportResponse } from "@/lib/export/response";
import { NotFoundError } from "@/lib/errors";
import { agentExport } from "@/lib/export/pages";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { AGENT_TABLES, tableOf } from "@/lib/validations/export";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

const PAGE_TABLES = AGENT_TABLES.filter((t) => t !== "workspaces");

/** GET /api/v1/export/agents/{agent}/{series|kinds|distribution}.csv?range= → CSV of that chart or table of the agent page. */
export const GET = handle(async (request, { params }: { params: Promise<{ agent: string; table: string }> }) => {
  return exportResponse(request, async (db) => {
    const q = readQuery(request, rangeQuery);
    const { agent, table: segment } = await params;
    const table = tableOf(segment, PAGE_TABLES);
    if (!table)
      throw new NotFoundError(
        `No agent export of that name; there are: ${PAGE_TABLES.map((t) => `${t}.csv`).join(", ")}.`,
      );
    return await agentExport(db, agent, table, q);
  });
});
