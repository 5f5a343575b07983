import "server-only";
import { Gauge, Registry } from "prom-client";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { getLastBackup } from "@/lib/db/queries/backup";

// The scheduled backup's last success (docs/backup.md), from the database, so every instance answers the same.
// Exposed only when STORAGE_BACKUP_DIR is set: 0 until the first backup succeeds, so the alert on its age fires
// for a schedule that never worked as well as for one that stopped.

export async function backupRegistry(db: Db): Promise<Registry> {
  const r = new Registry();
  if (!config().backup) return r;
  const last = await getLastBackup(db);
  new Gauge({
    name: "coder_storage_backup_last_success_timestamp_seconds",
    help: "When the last scheduled backup was written whole (Unix time; 0: never).",
    registers: [r],
  }).set(last ? Date.parse(last.at) / 1000 : 0);
  return r;
}
