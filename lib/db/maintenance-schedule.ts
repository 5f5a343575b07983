import "server-only";
import type { Database } from "./open";
import type { Db } from "./types";
import { runMaintenance } from "./maintenance-task";

export const MAINTENANCE_EVERY_MS = 60 * 60 * 1000;
const FIRST_RUN_AFTER_MS = 30 * 1000;

const globalForSchedule = globalThis as unknown as { __storageMaintenance?: boolean };

/**
 * Runs the maintenance task in this app instance shortly after start and then hourly. Every instance
 * schedules it; the task's advisory lock lets one of them run it at a time. Each run asks `open` for the
 * database, so a database that was down at start (or went down since) is tried again at the next run instead of
 * leaving retention and partitions undone for good. Timers are unref'd: they never keep a process alive.
 * `afterRun` is the hourly work of the layers above (the cleanup ahead notices), after each run this instance made.
 */
export function startMaintenanceSchedule(
  open: () => Promise<Database>,
  everyMs = MAINTENANCE_EVERY_MS,
  afterRun?: (db: Db) => Promise<unknown>,
): void {
  // Once per process: `next dev` re-runs instrumentation on reload.
  if (globalForSchedule.__storageMaintenance) return;
  globalForSchedule.__storageMaintenance = true;
  const tick = async () => {
    try {
      const database = await open();
      const r = await runMaintenance(database);
      if (r.ran) {
        await afterRun?.(database.db);
        const gone = Object.values(r.deleted).reduce((s, n) => s + n, 0);
        console.log(
          `[maintenance] ${r.ms} ms: ${r.partitionsCreated.length} partitions created, ${r.partitionsDropped.length} dropped, ` +
            `${gone} expired rows deleted; raw history from ${r.rawHorizon}, roll-ups from ${r.rollupHorizon}`,
        );
      }
    } catch (err) {
      console.error(`[maintenance] failed (retried in an hour): ${(err as Error).message}`);
    }
  };
  setTimeout(() => void tick(), Math.min(FIRST_RUN_AFTER_MS, everyMs)).unref();
  setInterval(() => void tick(), everyMs).unref();
}
