import { exportResponse } from "@/lib/export/response";
import { NotFoundError } from "@/lib/errors";
import { moduleExport } from "@/lib/export/pages";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { moduleKey } from "@/lib/validations/modules";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ namespace: string; module: string }> };

/** GET /api/v1/export/modules/{namespace}/{module}.csv?range= → CSV of the module page's chart. */
export const GET = handle(async (request, { params }: Params) => {
  return exportResponse(request, async (db) => {
    const q = readQuery(request, rangeQuery);
    const { namespace, module: segment } = await params;
    const key = segment.endsWith(".csv") ? moduleKey(namespace, segment.slice(0, -4)) : null;
    if (key === null) throw new NotFoundError("Module exports are named {namespace}/{module}.csv.");
    return moduleExport(db, key, q);
  });
});
