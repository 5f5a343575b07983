import { exportResponse } from "@/lib/export/response";
import { NotFoundError } from "@/lib/errors";
import { fleetExport } from "@/lib/export/fleet";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { FLEET_TABLES, tableOf } from "@/lib/validations/export";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/fleet/{series|top-workspaces|top-agents|fastest-growing|volumes-at-risk|silent}.csv?range= → CSV */
export const GET = handle(async (request, { params }: { params: Promise<{ table: string }> }) => {
  return exportResponse(request, async (db) => {
    const q = readQuery(request, rangeQuery);
    const table = tableOf((await params).table, FLEET_TABLES);
    if (!table)
      throw new NotFoundError(
        `No fleet export of that name; there are: ${FLEET_TABLES.map((t) => `${t}.csv`).join(", ")}.`,
      );
    return await fleetExport(db, table, q);
  });
});
