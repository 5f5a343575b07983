// export.ts's probes: what the export's reader runs, captured, and its plans.
import { sql, type SQL } from "drizzle-orm";
import pg from "pg";
import type { SomeCsvExport } from "@/lib/csv/columns";
import { rowsOf, type Db } from "@/lib/db/types";

/** Line feeds in a chunk (indexOf: a loop over every byte in JS would cost as much as a share of the export). */
export function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/** The SQL of each page the reader runs, captured from a stand-in for the database. */
export async function pageSql(db: Db, rows: (spy: Db) => AsyncGenerator<unknown>, page: number): Promise<SQL> {
  const seen: SQL[] = [];
  const spy = { execute: (q: SQL) => (seen.push(q), db.execute(q)) } as unknown as Db;
  const it = rows(spy);
  while (seen.length <= page && !(await it.next()).done);
  await it.return(undefined);
  return seen[page];
}

/** The text of the first `n` COPY statements an export runs (read as far as their start, then cancelled). */
export async function copyQueries(exp: SomeCsvExport, n: number): Promise<string[]> {
  const seen: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = (args[0] as { text?: unknown }).text;
    if (typeof text === "string" && text.startsWith("copy (")) seen.push(text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    const reader = (await exp.open!(() => {})).getReader();
    while (seen.length < n && !(await reader.read()).done);
    await reader.cancel();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}

export async function explain(db: Db, label: string, q: SQL) {
  const plan = rowsOf<{ "QUERY PLAN": string }>(
    await db.execute(sql`explain (analyze, buffers, costs off, timing off) ${q}`),
  );
  console.log(`\nEXPLAIN ${label}:\n${plan.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`);
}
