import { NOTICE_CHANNELS } from "@/lib/notify/types";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

// The metrics this process counts as things happen (ingest, the Coder sync), as opposed to the fleet's figures,
// which every scrape reads from the database (lib/metrics/scrape.ts). They are per instance: with several app
// instances, Prometheus scrapes each one and sums them.

/** What an ingest request ended as: "stored", "duplicate", or the error envelope's code ("invalid", "too_old", ...). */
const INGEST_OUTCOMES_AT_START = ["stored", "duplicate"] as const;

function create() {
  const registry = new Registry();
  const ingestReports = new Counter({
    name: "coder_storage_ingest_reports_total",
    help: "Reports received by this instance's ingest route, by outcome (stored, duplicate, or the error code).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const ingestDuration = new Histogram({
    name: "coder_storage_ingest_duration_seconds",
    // Unlabeled: the outcomes are the counter's; one histogram keeps the series few.
    help: "Time this instance took to answer an ingest request (authentication, body, group commit), any outcome.",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const syncErrors = new Counter({
    name: "coder_storage_coder_sync_errors_total",
    help: "Failed runs of this instance's sync of workspaces and owners from Coder's API.",
    registers: [registry],
  });
  const syncLastSuccess = new Gauge({
    name: "coder_storage_coder_sync_last_success_timestamp_seconds",
    help: "When this instance last synced workspaces from Coder's API (Unix time); 0 before the first sync.",
    registers: [registry],
  });
  const notifications = new Counter({
    name: "coder_storage_notifications_total",
    help: "Owners' notices this instance tried to send, by channel (email, webhook, coder-inbox: as its workspaces' reporters told) and outcome (sent, retry, failed, skipped: turned off by the owner).",
    labelNames: ["channel", "outcome"] as const,
    registers: [registry],
  });
  // Series that exist from the start, so rate() and increase() see the first report counted.
  for (const outcome of INGEST_OUTCOMES_AT_START) ingestReports.inc({ outcome }, 0);
  for (const channel of NOTICE_CHANNELS)
    for (const outcome of ["sent", "retry", "failed", "skipped"]) notifications.inc({ channel, outcome }, 0);
  return { registry, ingestReports, ingestDuration, syncErrors, syncLastSuccess, notifications };
}

export type ProcessMetrics = ReturnType<typeof create>;

// One set per process on globalThis: Next.js bundles each route separately (the ingest route counts, the
// metrics route reads), and a module-level instance would be one per bundle.
const KEY = Symbol.for("coder-storage.process-metrics");

export function processMetrics(): ProcessMetrics {
  const g = globalThis as unknown as Record<symbol, ProcessMetrics | undefined>;
  return (g[KEY] ??= create());
}
