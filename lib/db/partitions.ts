import "server-only";
import { sql } from "drizzle-orm";
import { addDaysTo, type Day } from "@/lib/series";
import { rowsOf, type Db } from "./types";

// Day partitions of the raw history (drizzle/0011_history_partitions.sql): <table>_pYYYYMMDD holds the rows
// collected on that UTC day, <table>_default every row whose day has no partition.

export const HISTORY_TABLES = ["reports", "root_usage"] as const;
export type HistoryTable = (typeof HISTORY_TABLES)[number];

export const partitionName = (table: HistoryTable, day: Day) => `${table}_p${day.replaceAll("-", "")}`;
const dayStart = (day: Day) => `${day}T00:00:00Z`;
const ident = (name: string) => sql.raw(`"${name}"`);
// DDL on a partition waits at most this long for queries using the table; the next run tries again.
const LOCK_TIMEOUT = sql.raw(`set local lock_timeout = '5s'`);

export type Partition = { table: HistoryTable; name: string; day: Day };

// Partitions are catalog and DDL work (pg_inherits, the default partitions, tables named at run time), which no
// schema table describes: these statements stay SQL through db.execute.
export async function listPartitions(db: Db): Promise<Partition[]> {
  const rows = rowsOf<{ parent: HistoryTable; name: string }>(
    await db.execute(sql`select p.relname as parent, c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      join pg_namespace n on n.oid = p.relnamespace
      where n.nspname = current_schema() and p.relname in ('reports', 'root_usage')`),
  );
  return rows.flatMap((r) => {
    const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(r.name);
    return m ? [{ table: r.parent, name: r.name, day: `${m[1]}-${m[2]}-${m[3]}` as Day }] : [];
  });
}

/** Days that have rows waiting in a default partition, on or after `from`. */
async function daysInDefault(db: Db, from: Day): Promise<Day[]> {
  const rows = rowsOf<{ day: Day }>(
    await db.execute(sql`select distinct to_char(collected_at at time zone 'UTC', 'YYYY-MM-DD') as day from (
        select collected_at from reports_default union all select collected_at from root_usage_default) d
      where collected_at >= ${dayStart(from)}::timestamptz order by 1`),
  );
  return rows.map((r) => r.day);
}

/**
 * Creates the partitions of `days` that are missing, plus those of days with rows in a default partition on or
 * after `keepFrom` (moving those rows in). A partition is made as a plain table, filled from the default
 * partition and attached: attaching takes a lighter lock on the parent than CREATE TABLE … PARTITION OF, so
 * ingest keeps writing meanwhile. Returns the names created.
 */
export async function ensurePartitions(db: Db, days: Day[], keepFrom: Day): Promise<string[]> {
  const existing = new Set((await listPartitions(db)).map((p) => p.name));
  const wanted = [...new Set([...days, ...(await daysInDefault(db, keepFrom))])].sort();
  const created: string[] = [];
  for (const day of wanted) {
    for (const table of HISTORY_TABLES) {
      const name = partitionName(table, day);
      if (existing.has(name)) continue;
      const [lo, hi] = [dayStart(day), dayStart(addDaysTo(day, 1))];
      await db.transaction(async (tx) => {
        await tx.execute(LOCK_TIMEOUT);
        await tx.execute(sql`create table ${ident(name)} (like ${ident(table)} including defaults)`);
        await tx.execute(sql`with moved as (delete from ${ident(`${table}_default`)}
            where collected_at >= ${lo}::timestamptz and collected_at < ${hi}::timestamptz returning *)
          insert into ${ident(name)} select * from moved`);
        await tx.execute(sql`alter table ${ident(table)} attach partition ${ident(name)}
          for values from (${sql.raw(`'${lo}'`)}) to (${sql.raw(`'${hi}'`)})`);
      });
      created.push(name);
    }
  }
  return created;
}

/**
 * Expires raw history collected before `horizon` (a day): drops the day partitions before it (no row-by-row
 * delete, no dead rows to vacuum) and deletes the default partitions' rows before it. Returns what went.
 */
export async function expirePartitions(db: Db, horizon: Day): Promise<{ dropped: string[]; defaultRows: number }> {
  const dropped: string[] = [];
  for (const p of (await listPartitions(db))
    .filter((p) => p.day < horizon)
    .sort((a, b) => a.name.localeCompare(b.name))) {
    await db.transaction(async (tx) => {
      await tx.execute(LOCK_TIMEOUT);
      await tx.execute(sql`drop table ${ident(p.name)}`);
    });
    dropped.push(p.name);
  }
  let defaultRows = 0;
  for (const table of HISTORY_TABLES) {
    const rows = rowsOf<{ n: number }>(
      await db.execute(sql`with gone as (delete from ${ident(`${table}_default`)}
        where collected_at < ${dayStart(horizon)}::timestamptz returning 1) select count(*)::int as n from gone`),
    );
    defaultRows += Number(rows[0].n);
  }
  return { dropped, defaultRows };
}
