// Opens the database (and applies pending migrations) when the server starts, not on the first request:
// a broken DATABASE_URL or a locked data folder shows up in the log at once. Then sign-in: the first admin from
// ADMIN_EMAIL / ADMIN_PASSWORD when there is no user yet, and the guard on client-sent x-forwarded-for; and the
// cleanup policies' scheduler and the maintenance task (retention and partitions), hourly in every instance;
// one instance at a time runs each; and the workspace sync from Coder. SIGTERM: Next stops listening and finishes
// the requests in flight; this bounds how long (lib/shutdown.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installShutdownBound } = await import("./lib/shutdown");
  installShutdownBound();
  const { installForwardedForGuard } = await import("./lib/auth/client-ip");
  await installForwardedForGuard();
  const { baseUrlNotice } = await import("./lib/auth/server");
  const notice = baseUrlNotice();
  if (notice) console.log(notice);
  const { getDatabase, getDb } = await import("./lib/db");
  // Started whether or not the database opens now: each tick opens it if it is not open yet, so an outage at
  // start delays policies and maintenance instead of disabling them until the next restart.
  const { startCleanupScheduler } = await import("./lib/services/cleanup-scheduler");
  startCleanupScheduler(getDb);
  const { MAINTENANCE_EVERY_MS, startMaintenanceSchedule } = await import("./lib/db/maintenance-schedule");
  // After each hourly run: the owners told of the cleanups the policies' next runs will make.
  const { decideCleanupAhead } = await import("./lib/services/cleanup-ahead");
  // STORAGE_MAINTENANCE=off: a scheduled job runs `npm run maintenance` instead (the Helm chart's cronjob mode).
  const { config } = await import("./lib/config");
  if (config().maintenanceInProcess) {
    startMaintenanceSchedule(getDatabase, MAINTENANCE_EVERY_MS, (db) => decideCleanupAhead(db));
  }
  // A backup a day into STORAGE_BACKUP_DIR, when set (docs/backup.md).
  const { startBackupSchedule } = await import("./lib/backup/schedule");
  startBackupSchedule(getDatabase);
  // Coder's view of the workspaces (CODER_URL and CODER_SESSION_TOKEN), at start and every CODER_SYNC_INTERVAL.
  const { coderSyncConfig } = await import("./lib/coder/config");
  const { startCoderSync } = await import("./lib/services/coder-sync");
  startCoderSync(getDb, coderSyncConfig());
  // The owners' notices (docs/notifications.md): sends what the outbox holds, when a channel is configured.
  const { startNotificationSender } = await import("./lib/services/notification-sender");
  startNotificationSender(getDb);
  try {
    const database = await getDatabase();
    console.log(`[db] ready (${database.kind}: ${database.location})`);
    // Reports acknowledged before a crash or a stop may still wait for their kept aggregates: refresh them now
    // rather than at the next report.
    const { keptRefresherFor } = await import("./lib/ingest/kept-refresh");
    keptRefresherFor(database.db).poke();
    const { bootstrapAdminFromEnv } = await import("./lib/services/users");
    await bootstrapAdminFromEnv(database.db);
    // The reporter this release bundles, kept by version so the previous one stays servable (the staged rollout).
    const { recordBundledRelease } = await import("./lib/services/reporter-rollout");
    await recordBundledRelease(database.db);
  } catch (err) {
    console.error(
      `[db] could not open the database (tried again by the next request or scheduled task): ${(err as Error).message}`,
    );
  }
}
