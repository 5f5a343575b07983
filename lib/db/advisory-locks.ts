// Every PostgreSQL advisory lock the app takes, by what it guards. All of them share one key space per database,
// so two unrelated things under one id would wait for each other (and a try-lock would skip work it should do):
// each id here guards one thing (advisory-locks.test.ts). The values are arbitrary; keep those already deployed,
// since instances of two versions run side by side while one replaces the other.
//
// Not listed: ingest's lock per report id (drizzle/functions/ingest_reports.sql), a hash of the id spread over the
// whole 64-bit space, where meeting one of these constants is as likely as two report ids colliding.

/** Session lock: one instance at a time applies the migrations and function files at start (lib/db/open.ts). */
export const MIGRATION_LOCK = 7_244_101;

/** Transaction lock: concurrent retention edits each see the other's result (lib/db/queries/retention.ts). */
export const RETENTION_SETTINGS_LOCK = 7_244_102;

/** Session try-lock: one instance at a time runs the maintenance task (lib/db/maintenance-task.ts). */
export const MAINTENANCE_LOCK = 7_244_103;

/** Transaction lock: two admins demoting each other cannot both succeed (lib/auth/users.ts). */
export const ADMIN_CHANGES_LOCK = 7_244_104;

/** Session lock on the test server: one test worker at a time builds the migrated template (tests/support/db.ts). */
export const TEST_TEMPLATE_LOCK = 7_244_105;

/** Transaction try-lock: one cleanup scheduler tick at a time across the instances (lib/services/cleanup-scheduler.ts). */
export const SCHEDULER_LOCK = 7_244_202;

/**
 * Transaction lock on the kept aggregates (kept findings, root growth: lib/db/queries/kept-findings.ts,
 * root-growth.ts): the refresher of the workspaces ingest marked takes it shared to rewrite their rows, a rewrite
 * for the whole fleet takes it exclusive, so neither computes from what the other has not committed yet.
 */
export const KEPT_AGGREGATES_LOCK = 7_244_106;

/**
 * Transaction try-lock: one refresher of the marked workspaces' kept aggregates at a time across the instances
 * (lib/db/queries/kept-pending.ts); two would rewrite the same workspace's rows at once.
 */
export const KEPT_REFRESH_LOCK = 7_244_107;

/** The locks taken with a try (lib/db/try-lock.ts): the caller skips its work when another instance holds one. */
export type TryLock = typeof MAINTENANCE_LOCK | typeof SCHEDULER_LOCK | typeof KEPT_REFRESH_LOCK;

/**
 * Transaction lock: one notification sender at a time counts the hour's messages and leases rows
 * (lib/db/queries/notifications.ts), so two instances never both fill the same room under the hourly cap.
 */
export const NOTIFY_CLAIM_LOCK = 7_244_108;

/** Transaction lock: one decision of the owners' notices at a time (lib/services/notifications.ts), so one state is told once. */
export const NOTIFY_DECIDE_LOCK = 7_244_109;
