import { requireWorkspace } from "@/lib/auth/access";
import { ingestReport } from "@/lib/ingest/report";
import { readBody, parseJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { measureIngest } from "@/lib/metrics/ingest";
import { LIMITS } from "@/lib/report-format/constants";
import { parseReport } from "@/lib/ingest/parse-report";
import { inboxAnswer } from "@/lib/services/coder-inbox";

export const dynamic = "force-dynamic";

export const POST = handle(async (request) => {
  // Counted and timed for /metrics, refusals included (their outcome is the error's code).
  const { db, ...result } = await measureIngest(async () => {
    // Authenticate before reading the body: an anonymous client cannot make the server parse megabytes.
    const { db, workspaceId } = await requireWorkspace(request);
    const body = parseJson(await readBody(request, LIMITS.reportBodyBytes), request);
    return { ...(await ingestReport(db, workspaceId, parseReport(body))), db };
  });
  // The owner's Coder Inbox notices for the reporter to deliver (older reporters ignore the field).
  return machineJson({ ...result, inbox: await inboxAnswer(db, result.workspaceId, request) });
});
