import { processMetrics } from "./process";

// The hooks of the Coder workspace sync: it calls recordSyncError() when a run fails (Coder unreachable, a
// refused token, an answer that does not parse) and recordSyncSuccess() when a run completes. /metrics exposes
// them as coder_storage_coder_sync_errors_total and coder_storage_coder_sync_last_success_timestamp_seconds, so
// an alert can fire on errors or on a sync that has not succeeded for too long.

export function recordSyncError(): void {
  processMetrics().syncErrors.inc();
}

export function recordSyncSuccess(at: Date = new Date()): void {
  processMetrics().syncLastSuccess.set(at.getTime() / 1000);
}
