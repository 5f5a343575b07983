import { AppError } from "@/lib/errors";
import { processMetrics } from "./process";

/**
 * Runs one ingest request's work and counts it: its outcome ("stored" or "duplicate" when it succeeds, the error
 * envelope's code when it fails: a bounded set, one per domain error) and how long it took.
 */
export async function measureIngest<T extends { status: "stored" | "duplicate" }>(work: () => Promise<T>): Promise<T> {
  const { ingestReports, ingestDuration } = processMetrics();
  const end = ingestDuration.startTimer();
  let outcome = "error";
  try {
    const result = await work();
    outcome = result.status;
    return result;
  } catch (err) {
    outcome = err instanceof AppError ? err.code : "error";
    throw err;
  } finally {
    end();
    ingestReports.inc({ outcome });
  }
}
