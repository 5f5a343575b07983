import { handle, json } from "@/lib/http/response";
import type { z } from "zod";
import { REPORTER_MODULE, requireReporterModule, type moduleVersionsResponse } from "@/lib/terraform/module";

type Params = { params: Promise<{ namespace: string; name: string; provider: string }> };

// The module registry protocol's version list: the one version this dashboard was built with.
export const GET = handle(async (_request, { params }: Params) => {
  requireReporterModule(await params);
  return json<z.infer<typeof moduleVersionsResponse>>({
    modules: [{ versions: [{ version: REPORTER_MODULE.version }] }],
  });
});
