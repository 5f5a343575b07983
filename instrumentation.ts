// Opens the database (and applies pending migrations) when the server starts, not on the first request:
// a broken DATABASE_URL or a locked data folder shows up in the log at once. Then schedules the maintenance
// task (retention and partitions), hourly in every instance; one instance at a time runs it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDatabase } = await import("./lib/db");
  try {
    const database = await getDatabase();
    console.log(`[db] ready (${database.kind}: ${database.location})`);
    const { startMaintenanceSchedule } = await import("./lib/db/maintenance-schedule");
    startMaintenanceSchedule(database);
  } catch (err) {
    console.error(`[db] could not open the database: ${(err as Error).message}`);
  }
}
