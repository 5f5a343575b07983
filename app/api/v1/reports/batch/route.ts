import { requireWorkspace } from "@/lib/auth/access";
import { ingestBatch } from "@/lib/ingest/batch";
import { readJsonLifting } from "@/lib/http/request";
import { validate } from "@/lib/validations/validate";
import { handle, machineJson } from "@/lib/http/response";
import { LIMITS } from "@/lib/report-format/constants";
import { reportBatch, type ReportBatchResponse } from "@/lib/report-format/schema";
import { ValidationError } from "@/lib/errors";
import { inboxAnswer } from "@/lib/services/coder-inbox";

export const dynamic = "force-dynamic";

/** Each report is parsed on its own as the body is scanned; a report past the batch's size is refused there. */
function oneReport(value: unknown, index: number): unknown {
  if (index < LIMITS.reportBatchSize) return value;
  throw new ValidationError(`A batch holds at most ${LIMITS.reportBatchSize} reports.`, {
    issues: [{ path: `reports.${index}`, message: `more than ${LIMITS.reportBatchSize} reports` }],
  });
}

export const POST = handle(async (request) => {
  // Authenticate before reading the body: an anonymous client cannot make the server parse megabytes.
  const { db, workspaceId } = await requireWorkspace(request);
  const { rest, lifted } = await readJsonLifting(
    request,
    LIMITS.reportBatchBodyBytes,
    { reports: oneReport },
    LIMITS.reportBodyBytes,
  );
  const listed = typeof rest === "object" && rest !== null && Array.isArray((rest as { reports?: unknown }).reports);
  const { reports } = validate(reportBatch, listed ? { ...rest, reports: lifted.reports } : rest);
  const results = await ingestBatch(db, workspaceId, reports);
  // The owner's Coder Inbox notices ride on an answer that stored something (older reporters ignore the field).
  const stored = results.some((r) => r.status === "stored" || r.status === "duplicate");
  return machineJson<ReportBatchResponse>({
    results,
    inbox: stored ? await inboxAnswer(db, workspaceId, request) : [],
  });
});
