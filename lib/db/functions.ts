import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "./types";

/**
 * The database functions' sources, one file per function (`<name>.sql`, a `CREATE OR REPLACE FUNCTION`): a
 * change to a function is a diff of its file, not a copy of it in a new migration. The versioned migrations
 * before this folder existed still hold the functions' earlier versions; they are history.
 */
export const FUNCTIONS_FOLDER = path.join(/*turbopackIgnore: true*/ process.cwd(), "drizzle", "functions");

/**
 * Applies each function file whose checksum differs from the one recorded when it was last applied (or that was
 * never applied), after the versioned migrations, and returns the names applied. The caller holds the
 * migrations' lock, so app instances starting together apply a file once.
 *
 * Files are applied in name order, each with its checksum in one transaction. A LANGUAGE sql function's body is
 * checked when it is created, so one that calls another function must sort after it (plpgsql bodies are not).
 * A change of a function's arguments or result type is not a replacement: drop the old one in a versioned
 * migration.
 */
export async function applyFunctions(db: Db, folder = FUNCTIONS_FOLDER): Promise<string[]> {
  // Beside drizzle's own record of the migrations applied: bookkeeping, not part of the app's schema.
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(sql`create table if not exists drizzle.function_checksums (
    name text primary key, checksum text not null, applied_at timestamptz not null default now())`);
  // The migrator's own bookkeeping table, outside the app's schema (made just above): SQL through db.execute.
  const applied = new Map(
    rowsOf<{ name: string; checksum: string }>(
      await db.execute(sql`select name, checksum from drizzle.function_checksums`),
    ).map((r) => [r.name, r.checksum]),
  );
  const files = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const changed: string[] = [];
  for (const file of files) {
    const name = file.slice(0, -".sql".length);
    const source = fs.readFileSync(path.join(folder, file), "utf8");
    const checksum = createHash("sha256").update(source).digest("hex");
    if (applied.get(name) === checksum) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(source));
      await tx.execute(sql`insert into drizzle.function_checksums (name, checksum) values (${name}, ${checksum})
        on conflict (name) do update set checksum = excluded.checksum, applied_at = now()`);
    });
    changed.push(name);
  }
  return changed;
}
