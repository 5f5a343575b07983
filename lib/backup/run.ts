import "server-only";
import fs from "node:fs";
import type { Writable } from "node:stream";
import type { PGlite } from "@electric-sql/pglite";
import type { ClientBase } from "pg";
import { afterMigrate } from "@/lib/db/after-migrate";
import { CONNECTION_OPTIONS, lockDataFolder, openPostgres, type Database } from "@/lib/db/open";
import * as schema from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { writeBackup, type BackupOptions, type BackupSummary } from "./backup";
import { pgConn, pgliteConn, type Conn } from "./connection";
import { checkBackup, loadBackup, refuseNonEmpty, type RestoreProgress } from "./restore";
import type { ReadResult } from "./read";

// Where a backup reads from and a restore writes to: the app's own open database (the API and the schedule), a
// PostgreSQL server by URL, or an embedded database's folder (the commands, while the app is stopped).

const clientOf = <T>(db: unknown) => (db as { $client: T }).$client;

/** One repeatable-read snapshot on PostgreSQL, read-only for a backup. */
async function inPgTransaction<T>(client: ClientBase, mode: string, fn: (conn: Conn) => Promise<T>): Promise<T> {
  await client.query(`begin isolation level ${mode}`);
  try {
    const result = await fn(pgConn(client));
    await client.query("commit");
    return result;
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  }
}

/**
 * On the embedded database, PGlite's transaction holds its only connection: the app's other queries (ingest
 * among them) wait until the backup is written.
 */
const inPgliteTransaction = <T>(client: PGlite, fn: (conn: Conn) => Promise<T>): Promise<T> =>
  client.transaction(async (tx) => {
    await tx.exec("set transaction isolation level repeatable read");
    return fn(pgliteConn(tx));
  });

/** A backup of the app's open database (GET /api/v1/backup, the scheduled backup). */
export function backupDatabase(database: Database, out: Writable, opts?: BackupOptions): Promise<BackupSummary> {
  if (database.kind === "embedded")
    return inPgliteTransaction(clientOf<PGlite>(database.db), (conn) => writeBackup(conn, out, opts));
  return database.session((db) =>
    inPgTransaction(clientOf<ClientBase>(db), "repeatable read read only", (conn) => writeBackup(conn, out, opts)),
  );
}

async function pgClient(url: string) {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url, options: CONNECTION_OPTIONS });
  await client.connect();
  return client;
}

/** Opens the embedded database's folder as it is, unmigrated, under its lock (refused while the app runs). */
async function withDataFolder<T>(dir: string, fn: (client: PGlite) => Promise<T>): Promise<T> {
  const release = await lockDataFolder(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const client = new PGlite(dir);
    try {
      await client.waitReady;
      return await fn(client);
    } finally {
      await client.close();
    }
  } finally {
    await release();
  }
}

/** The database a command reads from or restores into: a PostgreSQL URL or an embedded database's folder. */
export type Target = { kind: "postgres"; url: string } | { kind: "embedded"; dir: string };

export async function backupTarget(target: Target, out: Writable, opts?: BackupOptions): Promise<BackupSummary> {
  if (target.kind === "embedded") {
    if (!fs.existsSync(`${target.dir}/PG_VERSION`))
      throw new Error(`There is no embedded database in ${target.dir} (set STORAGE_DATA_DIR or DATABASE_URL).`);
    return withDataFolder(target.dir, (client) => inPgliteTransaction(client, (conn) => writeBackup(conn, out, opts)));
  }
  const client = await pgClient(target.url);
  try {
    return await inPgTransaction(client, "repeatable read read only", (conn) => writeBackup(conn, out, opts));
  } finally {
    await client.end();
  }
}

export type RestoreOptions = {
  force?: boolean;
  /** Where `--force` writes the safety backup of what the target holds, before it replaces it. */
  safetyFile?: string;
  onTable?: RestoreProgress;
};
export type RestoreResult = ReadResult & { replaced: Record<string, number>; safetyFile?: string };

/**
 * Restores the backup `file` into `target`, after checking all of it. PostgreSQL: one transaction, so a failure or
 * a killed process leaves the target as it was. Embedded: a new data folder beside the target, renamed into place
 * at the end.
 */
export async function restoreTarget(target: Target, file: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const checked = await checkBackup(file);
  const replaced = await safetyBackup(target, opts);
  if (target.kind === "postgres") {
    const client = await pgClient(target.url);
    try {
      await inPgTransaction(client, "read committed", (conn) => loadBackup(conn, file, checked, opts.onTable));
    } finally {
      await client.end();
    }
    // Function files and the boot work, as the app does at start.
    await (await openPostgres(target.url, 1)).close();
  } else {
    await restoreFolder(target.dir, file, checked, opts.onTable);
  }
  return { ...checked, replaced, safetyFile: Object.keys(replaced).length ? opts.safetyFile : undefined };
}

/** Refuses a target that holds data unless `force`; with it, backs that data up first. */
async function safetyBackup(target: Target, opts: RestoreOptions): Promise<Record<string, number>> {
  const counts =
    target.kind === "postgres"
      ? await (async () => {
          const client = await pgClient(target.url);
          return refuseNonEmpty(pgConn(client), !!opts.force).finally(() => client.end());
        })()
      : fs.existsSync(`${target.dir}/PG_VERSION`)
        ? await withDataFolder(target.dir, (client) => refuseNonEmpty(pgliteConn(client), !!opts.force))
        : {};
  if (Object.keys(counts).length) {
    if (!opts.safetyFile) throw new Error("--force needs a place for the safety backup.");
    const partial = `${opts.safetyFile}.partial`;
    await backupTarget(target, fs.createWriteStream(partial), { withSecrets: true });
    fs.renameSync(partial, opts.safetyFile);
  }
  return counts;
}

async function restoreFolder(dir: string, file: string, checked: ReadResult, onTable?: RestoreProgress) {
  const release = await lockDataFolder(dir);
  const fresh = `${dir}.restoring`;
  const old = `${dir}.replaced`;
  try {
    fs.rmSync(fresh, { recursive: true, force: true });
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const client = new PGlite(fresh);
    try {
      await client.waitReady;
      await inPgliteTransaction(client, (conn) => loadBackup(conn, file, checked, onTable));
      // The function files and the boot work, as the app's opener does after its migrations (all applied by the
      // load). Not the opener itself: it starts a second PGlite and makes statistics of every table (16 s on a
      // 255 MB folder), which the app's opener makes again at its every start on the embedded database anyway.
      await afterMigrate(drizzle({ client, schema }) as unknown as Db);
    } finally {
      await client.close();
    }
    fs.rmSync(old, { recursive: true, force: true });
    // The target's folder stays whole until the new one is complete: two renames, then the old one goes.
    if (fs.existsSync(dir)) fs.renameSync(dir, old);
    fs.renameSync(fresh, dir);
    fs.rmSync(old, { recursive: true, force: true });
  } catch (err) {
    fs.rmSync(fresh, { recursive: true, force: true });
    throw err;
  } finally {
    await release();
  }
}
