import "server-only";
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_FOLDER } from "@/lib/db/open";
import type { Conn } from "./connection";

// What a backup and a restore read of a database's schema from its catalog, and of drizzle's journal: the
// migrations this release knows, by index.

export type JournalEntry = { idx: number; tag: string; when: number };

export function readJournal(folder = MIGRATIONS_FOLDER): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/** The last migration applied, by drizzle's record; null on a database never migrated. */
export async function appliedMigration(conn: Conn): Promise<{ when: number } | null> {
  const [exists] = await conn.query<{ ok: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as ok`,
  );
  if (!exists.ok) return null;
  const [row] = await conn.query<{ when: string }>(
    `select created_at::text as when from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  );
  return row ? { when: Number(row.when) } : null;
}

/** The product's tables in the public schema (partitions aside). */
export async function tablesOf(conn: Conn): Promise<string[]> {
  const rows = await conn.query<{ name: string }>(`select c.relname as name from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`);
  return rows.map((r) => r.name);
}

/** A table's stored columns (generated ones are computed again on load). */
export async function columnsOf(conn: Conn, table: string): Promise<string[]> {
  const columns = await conn.query<{ name: string }>(
    `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped
       and attgenerated = '' order by attnum`,
    [`public."${table}"`],
  );
  return columns.map((c) => c.name);
}

export async function sequencesOf(conn: Conn): Promise<{ name: string; lastValue: string | null }[]> {
  return conn.query(`select sequencename as name, last_value::text as "lastValue" from pg_sequences
    where schemaname = 'public' order by 1`);
}

/** Counts of the rows that make a database not empty: people, workspaces, reports. */
export async function contentOf(conn: Conn): Promise<Record<string, number>> {
  const present = new Set(await tablesOf(conn));
  const counts: Record<string, number> = {};
  for (const table of ["users", "workspaces", "reports"].filter((t) => present.has(t))) {
    const [row] = await conn.query<{ n: string }>(`select count(*)::text as n from "${table}"`);
    if (Number(row.n) > 0) counts[table] = Number(row.n);
  }
  return counts;
}
