import { exportResponse } from "@/lib/export/response";
import { NotFoundError } from "@/lib/errors";
import { workspaceExport } from "@/lib/export/pages";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { tableOf, WORKSPACE_TABLES } from "@/lib/validations/export";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/workspaces/{id}/{roots|categories|sessions|entries|ages|volume|reports}.csv?range= → CSV of that table or chart. */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string; table: string }> }) => {
  return exportResponse(
    request,
    async (db, scope) => {
      const q = readQuery(request, rangeQuery);
      const { id, table: segment } = await params;
      const table = tableOf(segment, WORKSPACE_TABLES);
      if (!table)
        throw new NotFoundError(
          `No workspace export of that name; there are: ${WORKSPACE_TABLES.map((t) => `${t}.csv`).join(", ")}.`,
        );
      return await workspaceExport(db, scope, id, table, q);
    },
    "member",
  );
});
