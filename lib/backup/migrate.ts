import "server-only";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { MIGRATIONS_FOLDER } from "@/lib/db/open";
import type { Conn } from "./connection";
import { appliedMigration } from "./schema-info";

/**
 * Applies drizzle's migrations up to the journal's index `last`, as drizzle's migrator does (the same record in
 * drizzle.__drizzle_migrations, so the app's migrator later finds them applied), but inside the caller's
 * transaction: a restore makes the schema of the backup's migration, loads, then applies the newer ones, and
 * the whole of it commits or nothing does. drizzle's own migrator opens a transaction of its own.
 */
export async function migrateTo(conn: Conn, last: number): Promise<void> {
  await conn.exec(`create schema if not exists drizzle;
    create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
  const applied = (await appliedMigration(conn))?.when ?? 0;
  for (const [idx, migration] of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).entries()) {
    if (idx > last || migration.folderMillis <= applied) continue;
    for (const statement of migration.sql) await conn.exec(statement);
    await conn.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)`, [
      migration.hash,
      migration.folderMillis,
    ]);
  }
}
