import { requireCaller } from "@/lib/auth/access";
import { getModuleDetail } from "@/lib/db/queries/modules";
import { NotFoundError } from "@/lib/errors";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { moduleKey } from "@/lib/validations/modules";
import { rangeQuery } from "@/lib/validations/range";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ namespace: string; module: string }> };

/** GET /api/v1/modules/{namespace}/{module}?range=&from=&to= → ModuleDetail; 404 for a module no workspace held. */
export const GET = handle(async (request, { params }: Params) => {
  const { db } = await requireCaller(request, "viewer");
  const q = readQuery(request, rangeQuery);
  const { namespace, module } = await params;
  const key = moduleKey(namespace, module);
  const detail = key === null ? null : await getModuleDetail(db, key, q);
  if (!detail) throw new NotFoundError(`No workspace holds or has held the module "${namespace}/${module}".`);
  return json(detail);
});
