import "server-only";
import fs from "node:fs";
import { HISTORY_TABLES, partitionName } from "@/lib/db/partitions";
import { addDaysTo, type Day } from "@/lib/series";
import { PORTABLE_TEXT } from "./backup";
import type { Conn } from "./connection";
import type { BackupHeader } from "./format";
import { migrateTo } from "./migrate";
import { BadBackupError, readBackup, type ReadResult } from "./read";
import { contentOf, readJournal } from "./schema-info";

export type RestoreProgress = (table: string, rows: number, index: number, of: number) => void;

/** A target that holds data, refused without `--force`. */
export class TargetNotEmptyError extends Error {
  name = "TargetNotEmptyError";
  constructor(readonly counts: Record<string, number>) {
    super(
      `The target is not empty (${Object.entries(counts)
        .map(([t, n]) => `${n} ${t}`)
        .join(", ")}). Restore into an empty database, or pass --force: it writes a safety backup of what is ` +
        `there first and replaces it.`,
    );
  }
}

/** Reads the whole file and verifies every section, writing nothing: `restore --check`, and before every load. */
export const checkBackup = (file: string): Promise<ReadResult> => readBackup(fs.createReadStream(file));

/** Refuses a target with people, workspaces or reports in it, unless `force`. */
export async function refuseNonEmpty(conn: Conn, force: boolean): Promise<Record<string, number>> {
  const counts = await contentOf(conn);
  if (Object.keys(counts).length && !force) throw new TargetNotEmptyError(counts);
  return counts;
}

/**
 * Loads the checked backup `file` into `conn`, inside the caller's transaction: drops what the target holds,
 * makes the schema at the backup's migration, makes its day partitions, loads every table (each section checked
 * again against the manifest as it streams), sets the sequences, then applies this release's newer migrations.
 * The app's opener applies the function files and the boot work afterwards.
 */
export async function loadBackup(conn: Conn, file: string, checked: ReadResult, onTable?: RestoreProgress) {
  const { header, manifest } = checked;
  // Drizzle's record of migrations goes with the schema it describes.
  await conn.exec(`drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public`);
  await migrateTo(conn, header.migration.idx);
  await conn.exec(PORTABLE_TEXT);
  await makePartitions(conn, header);
  let index = 0;
  await readBackup(fs.createReadStream(file), {
    expected: manifest,
    rows: async (table, columns, lines) => {
      await conn.copyIn(table, columns, lines);
      onTable?.(table, manifest.tables[index].rows, index++, manifest.tables.length);
    },
  });
  for (const { name, lastValue } of header.sequences)
    if (lastValue !== null) await conn.query(`select setval($1, $2::bigint, true)`, [`public."${name}"`, lastValue]);
  await migrateTo(conn, readJournal().length - 1);
}

async function makePartitions(conn: Conn, header: BackupHeader) {
  const [partitioned] = await conn.query<{ ok: boolean }>(
    `select exists (select from pg_partitioned_table where partrelid = to_regclass('public.reports')) as ok`,
  );
  if (!partitioned.ok) return;
  for (const day of header.partitionDays as Day[]) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new BadBackupError(`The header names a partition of day "${day}".`);
    for (const table of HISTORY_TABLES)
      await conn.exec(`create table if not exists "${partitionName(table, day)}" partition of "${table}"
        for values from ('${day}T00:00:00Z') to ('${addDaysTo(day, 1)}T00:00:00Z')`);
  }
}

/** What stops working after a restore of a backup without secrets, one line each. */
export function leftOutNotice(header: BackupHeader, enrollmentKeySet: boolean): string[] {
  return header.leftOut.map((l) =>
    l.table === "settings" && enrollmentKeySet
      ? "settings: the generated sign-in secret (every session ends); the enrollment key is STORAGE_ENROLLMENT_KEY's"
      : `${l.table}: ${l.effect}`,
  );
}

export { BadBackupError };
