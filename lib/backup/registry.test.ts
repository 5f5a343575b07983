import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/lib/db/types";
import { describeEachDatabase } from "@/tests/support/db";
import { TABLES } from "./registry";

describeEachDatabase("the backup's table registry", (t) => {
  it("declares every table of the migrated schema, and only those", async () => {
    const tables = rowsOf<{ name: string }>(
      await t.current.db.execute(sql`select c.relname as name from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`),
    ).map((r) => r.name);
    expect(
      tables.filter((name) => !(name in TABLES)),
      "a new table: declare it in lib/backup/registry.ts (backed up? its secrets?) and docs/backup.md",
    ).toEqual([]);
    expect(Object.keys(TABLES).filter((name) => !tables.includes(name))).toEqual([]);
  });

  it("names only columns that exist as secrets", async () => {
    const columns = rowsOf<{ tbl: string; col: string }>(
      await t.current.db.execute(sql`select table_name as tbl, column_name as col from information_schema.columns
        where table_schema = 'public'`),
    );
    const have = new Set(columns.map((c) => `${c.tbl}.${c.col}`));
    const named = Object.entries(TABLES).flatMap(([table, entry]) =>
      entry.backup ? Object.keys(entry.secrets?.columns ?? {}).map((c) => `${table}.${c}`) : [],
    );
    expect(named.filter((c) => !have.has(c))).toEqual([]);
  });
});
