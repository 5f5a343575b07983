import "server-only";
import type { Db } from "@/lib/db";
import { AppError, isDatabaseUnavailable } from "@/lib/errors";
import { ingestReport } from "@/lib/ingest/report";
import { measureIngest } from "@/lib/metrics/ingest";
import { parseReport } from "@/lib/ingest/parse-report";
import type { ReportBatchResult } from "@/lib/report-format/schema";

/** The id a report claims, for its result even when the rest of it is invalid. */
function claimedId(item: unknown): string | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === "string" && id.length <= 100 ? id : null;
}

/**
 * Stores a reporter's batch: each report validated and stored on its own, exactly once (by its id), with its
 * own outcome in the order sent. They are submitted together, so the group-commit queue stores them in one
 * transaction when it can, and report by report when one of them fails. Throws (503 for the whole request)
 * only when the database is unreachable for every report that could have been stored.
 */
export async function ingestBatch(
  db: Db,
  workspaceId: string,
  items: unknown[],
  receivedAt = new Date(),
): Promise<ReportBatchResult[]> {
  let unavailable: unknown = null;
  const results = await Promise.all(
    items.map(async (item): Promise<ReportBatchResult> => {
      try {
        // Counted for /metrics report by report, as the single-report route counts its one.
        const r = await measureIngest(() => ingestReport(db, workspaceId, parseReport(item), receivedAt));
        return { id: r.reportId, status: r.status, newest: r.newest };
      } catch (err) {
        const id = claimedId(item);
        if (err instanceof AppError) {
          const error = {
            code: err.code,
            message: err.message,
            ...(err.details === undefined ? {} : { details: err.details }),
          };
          return { id, status: "rejected", error };
        }
        if (!isDatabaseUnavailable(err)) console.error(`[ingest] report ${id} of a batch failed:`, err);
        else unavailable = err;
        return { id, status: "retry", error: { code: "retry", message: "Not stored now; send it again later." } };
      }
    }),
  );
  if (unavailable && results.every((r) => r.status === "retry" || r.status === "rejected")) throw unavailable;
  return results;
}
