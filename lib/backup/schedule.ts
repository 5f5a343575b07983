import "server-only";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { MAINTENANCE_LOCK } from "@/lib/db/advisory-locks";
import type { Database } from "@/lib/db/open";
import { getLastBackup, recordLastBackup, type LastBackup } from "@/lib/db/queries/backup";
import { tryAdvisoryLock } from "@/lib/db/try-lock";
import { FILE_SUFFIX } from "./format";
import { backupDatabase } from "./run";

// The scheduled backup (STORAGE_BACKUP_DIR): one a day, written under a temporary name and renamed when whole,
// the newest STORAGE_BACKUP_KEEP kept. It runs under the maintenance task's lock, so one instance writes it and
// no partition is dropped while it reads (maintenance skips its run meanwhile, and runs at its next hour).

const DAY_MS = 24 * 60 * 60 * 1000;
const CHECK_EVERY_MS = 60 * 60 * 1000;
const FIRST_CHECK_AFTER_MS = 2 * 60 * 1000;
const PREFIX = "storage-backup-";

export type ScheduledBackup = { ran: false; reason: string } | ({ ran: true } & LastBackup);

/** Writes the day's backup into `dir` unless the last success is less than a day old (or `force`). */
export async function runScheduledBackup(
  database: Database,
  opts: { dir: string; keep: number; now?: Date; force?: boolean },
): Promise<ScheduledBackup> {
  const now = opts.now ?? new Date();
  const last = await getLastBackup(database.db);
  if (!opts.force && last && now.getTime() - Date.parse(last.at) < DAY_MS - CHECK_EVERY_MS)
    return { ran: false, reason: `the last backup is from ${last.at}` };
  return database.session(async (db) => {
    if (!(await tryAdvisoryLock(db, MAINTENANCE_LOCK, "session")))
      return { ran: false, reason: "another instance holds the maintenance lock" };
    try {
      fs.mkdirSync(opts.dir, { recursive: true });
      const file = path.join(opts.dir, `${PREFIX}${now.toISOString().replace(/[:.]/g, "-")}${FILE_SUFFIX}`);
      const partial = `${file}.partial`;
      try {
        const summary = await backupDatabase(database, fs.createWriteStream(partial), { withSecrets: true });
        fs.renameSync(partial, file);
        const done: LastBackup = {
          at: now.toISOString(),
          file: path.basename(file),
          bytes: summary.bytes,
          ms: summary.ms,
        };
        await recordLastBackup(db, done);
        prune(opts.dir, opts.keep);
        return { ran: true, ...done };
      } finally {
        fs.rmSync(partial, { force: true });
      }
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MAINTENANCE_LOCK})`);
    }
  });
}

/** Removes all but the newest `keep` backups (their names sort by time), and partial files left by a crash. */
function prune(dir: string, keep: number) {
  const names = fs.readdirSync(dir).filter((n) => n.startsWith(PREFIX));
  const whole = names.filter((n) => n.endsWith(FILE_SUFFIX)).sort();
  const stale = [...whole.slice(0, Math.max(0, whole.length - keep)), ...names.filter((n) => n.endsWith(".partial"))];
  for (const name of stale) fs.rmSync(path.join(dir, name), { force: true });
}

const globalForSchedule = globalThis as unknown as { __storageBackup?: boolean };

/** Checks hourly in every instance whether the day's backup is due; off without STORAGE_BACKUP_DIR. */
export function startBackupSchedule(open: () => Promise<Database>): void {
  const settings = config().backup;
  if (!settings || globalForSchedule.__storageBackup) return;
  globalForSchedule.__storageBackup = true;
  const tick = async () => {
    try {
      const r = await runScheduledBackup(await open(), settings);
      if (r.ran) console.log(`[backup] ${r.file}: ${r.bytes} bytes in ${r.ms} ms`);
    } catch (err) {
      console.error(`[backup] failed (tried again in an hour): ${(err as Error).message}`);
    }
  };
  setTimeout(() => void tick(), FIRST_CHECK_AFTER_MS).unref();
  setInterval(() => void tick(), CHECK_EVERY_MS).unref();
}
