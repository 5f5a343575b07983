import { requireWorkspace } from "@/lib/auth/access";
import { ingestReport } from "@/lib/ingest/report";
import { readBody, parseJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { measureIngest } from "@/lib/metrics/ingest";
import { LIMITS } from "@/lib/report-format/constants";
import { parseReport } from "@/lib/ingest/parse-report";

export const dynamic = "force-dynamic";

export const POST = handle(async (request) => {
  // Counted and timed for /metrics, refusals included (their outcome is the error's code).
  const result = await measureIngest(async () => {
    // Authenticate before reading the body: an anonymous client cannot make the server parse megabytes.
    const { db, workspaceId } = await requireWorkspace(request);
    const body = parseJson(await readBody(request, LIMITS.reportBodyBytes), request);
    return ingestReport(db, workspaceId, parseReport(body));
  });
  return machineJson(result);
});
