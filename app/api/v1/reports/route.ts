import { requireWorkspace } from "@/lib/auth/access";
import { ingestReport } from "@/lib/ingest/report";
import { readBody, parseJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { LIMITS } from "@/lib/report/constants";
import { parseReport } from "@/lib/report/parse";

export const dynamic = "force-dynamic";

export const POST = handle(async (request) => {
  // Authenticate before reading the body: an anonymous client cannot make the server parse megabytes.
  const { db, workspaceId } = await requireWorkspace(request);
  const body = parseJson(await readBody(request, LIMITS.reportBodyBytes), request);
  const result = await ingestReport(db, workspaceId, parseReport(body));
  return machineJson(result);
});
