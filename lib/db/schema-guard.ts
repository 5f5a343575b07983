import "server-only";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pkg from "@/package.json";
import { rowsOf, type Db } from "./types";

/**
 * A database a later release migrated: it holds migrations this release does not have. Drizzle's migrator would
 * skip every migration older than the newest applied one and let this release run on a schema it was never
 * written for, so the opener refuses before it migrates anything.
 */
export class SchemaNewerError extends Error {
  constructor(unknown: { createdAt: number }[]) {
    const newest = new Date(Math.max(...unknown.map((m) => m.createdAt))).toISOString();
    super(
      `The database's schema is newer than this release (${pkg.name} ${pkg.version}): it holds ${unknown.length} ` +
        `migration(s) this release does not know, the newest made ${newest}. A later release migrated it. Run that ` +
        `release (or a newer one), or roll back by restoring the backup taken before the upgrade (npm run restore; ` +
        `docs/operating.md, "Upgrades"). Nothing was changed.`,
    );
    this.name = "SchemaNewerError";
  }
}

/**
 * Throws SchemaNewerError when drizzle's table of applied migrations holds one that is not in `migrationsFolder`
 * (known by its journal time, which drizzle records as created_at). A fresh database has no such table.
 */
export async function refuseNewerSchema(db: Db, migrationsFolder: string): Promise<void> {
  const [{ present }] = rowsOf<{ present: boolean }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
  );
  if (!present) return;
  const known = new Set(readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  const applied = rowsOf<{ created_at: string | number }>(
    await db.execute(sql`select created_at from drizzle.__drizzle_migrations`),
  );
  const unknown = applied.map((r) => ({ createdAt: Number(r.created_at) })).filter((m) => !known.has(m.createdAt));
  if (unknown.length) throw new SchemaNewerError(unknown);
}
