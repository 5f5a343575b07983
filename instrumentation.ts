// Opens the database (and applies pending migrations) when the server starts, not on the first request:
// a broken DATABASE_URL or a locked data folder shows up in the log at once. Then sign-in: the first admin from
// ADMIN_EMAIL / ADMIN_PASSWORD when there is no user yet, and the guard on client-sent x-forwarded-for; then the
// cleanup policies' scheduler and the maintenance task (retention and partitions), hourly in every instance;
// one instance at a time runs each.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installForwardedForGuard } = await import("./lib/auth/client-ip");
  await installForwardedForGuard();
  const { getDatabase, getDb } = await import("./lib/db");
  try {
    const database = await getDatabase();
    console.log(`[db] ready (${database.kind}: ${database.location})`);
    const { bootstrapAdminFromEnv } = await import("./lib/auth/users");
    await bootstrapAdminFromEnv(database.db);
    // Cleanup policies: queued by a scheduler in every instance, one tick at a time (advisory lock).
    const { startCleanupScheduler } = await import("./lib/cleanup/scheduler");
    startCleanupScheduler(getDb);
    const { startMaintenanceSchedule } = await import("./lib/db/maintenance-schedule");
    startMaintenanceSchedule(database);
  } catch (err) {
    console.error(`[db] could not open the database: ${(err as Error).message}`);
  }
}
