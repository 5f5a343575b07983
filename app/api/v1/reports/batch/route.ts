import { requireWorkspace } from "@/lib/auth/access";
import { ingestBatch } from "@/lib/ingest/batch";
import { parseJson, readBody } from "@/lib/http/request";
import { validate } from "@/lib/validations/validate";
import { handle, machineJson } from "@/lib/http/response";
import { LIMITS } from "@/lib/report-format/constants";
import { reportBatch, type ReportBatchResponse } from "@/lib/report-format/schema";

export const dynamic = "force-dynamic";

export const POST = handle(async (request) => {
  // Authenticate before reading the body: an anonymous client cannot make the server parse megabytes.
  const { db, workspaceId } = await requireWorkspace(request);
  const { reports } = validate(reportBatch, parseJson(await readBody(request, LIMITS.reportBatchBodyBytes), request));
  return machineJson<ReportBatchResponse>({ results: await ingestBatch(db, workspaceId, reports) });
});
