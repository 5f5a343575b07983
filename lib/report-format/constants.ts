// Plain constants shared by the reporter and the server. No imports: the reporter bundles this file and
// must stay free of runtime dependencies.

export const REPORT_FORMAT_VERSION = 1 as const;
export const SUPPORTED_REPORT_VERSIONS: readonly number[] = [1];

/**
 * "leftover": AgentAPI files sent as roots by reporters before 0.2. "trash": the reporter's cleanup trash.
 * "package-cache": a tool's package cache (lib/catalog/recipe-data/caches.ts), sent by reporters 0.5 and later.
 */
export const ROOT_KINDS = [
  "module",
  "tool",
  "legacy",
  "script-data",
  "leftover",
  "custom",
  "trash",
  "package-cache",
] as const;
export const CATEGORIES = ["sessions", "logs", "databases", "caches", "other"] as const;

/** Age buckets by modification time, relative to the report's collectedAt. Upper bounds in days. */
export const AGE_BUCKETS = ["1d", "7d", "30d", "90d", "older"] as const;
export const AGE_BUCKET_DAYS: Record<(typeof AGE_BUCKETS)[number], number> = {
  "1d": 1,
  "7d": 7,
  "30d": 30,
  "90d": 90,
  older: Infinity,
};

/**
 * How an agent's own retention setting was found: "absent" (no settings file, or the key is not in it: the
 * agent's default applies), "set" (read from its file), "unreadable" (the file could not be read or parsed, or
 * the key holds a value the agent would not accept; the report says why).
 */
export const RETENTION_STATES = ["absent", "set", "unreadable"] as const;

export const LIMITS = {
  /** Largest accepted report body, after gzip is undone. */
  reportBodyBytes: 4 * 1024 * 1024,
  /** Most reports in one batch (POST /api/v1/reports/batch), and the batch body's limit after gzip is undone. */
  reportBatchSize: 20,
  reportBatchBodyBytes: 16 * 1024 * 1024,
  enrollBodyBytes: 16 * 1024,
  roots: 1000,
  largestEntries: 50,
  errors: 200,
  pathLength: 4096,
  /** A count above this is not a real home folder. */
  maxCount: 1e9,
  /** 1 EiB: no workspace volume is larger. */
  maxBytes: 2 ** 60,
  /** collectedAt may be at most this far ahead of the server's clock (clock skew). */
  futureSkewMs: 10 * 60 * 1000,
} as const;

export type RootKind = (typeof ROOT_KINDS)[number];
export type Category = (typeof CATEGORIES)[number];
export type RetentionState = (typeof RETENTION_STATES)[number];
export type AgeBucket = (typeof AGE_BUCKETS)[number];
