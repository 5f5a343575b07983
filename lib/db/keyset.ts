import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "./types";

// Keyset paging: each page continues after the last row of the one before, by the values of its sort key
// (WHERE key > last ORDER BY key LIMIT n), so a page costs the same at row 10 and at row 10 million, and a
// row is read once even while ingest writes (OFFSET would re-read every earlier row and shift under writes).

export type KeyPart = {
  /** The expression sorted on, as the page query can refer to it. */
  expr: SQL;
  /** Its SQL type, so the last page's value (read back as text) compares exactly: text, date, timestamptz, ... */
  type: string;
  dir?: "asc" | "desc";
  /** Where nulls sort; omit for a column that is never null. */
  nulls?: "first" | "last";
};

/** The last row's key values as text (the `k0`, `k1`, ... columns the page query selects). */
type KeyValues = (string | null)[];

const cmp = (k: KeyPart) => sql.raw((k.dir ?? "asc") === "asc" ? ">" : "<");
const param = (k: KeyPart, v: string) => sql`${v}::${sql.raw(k.type)}`;

/** The condition "strictly after `last`" in the order of `keys`. */
export function keysetAfter(keys: readonly KeyPart[], last: KeyValues | null): SQL {
  if (!last) return sql`true`;
  const uniform = keys.every((k) => !k.nulls && (k.dir ?? "asc") === (keys[0].dir ?? "asc"));
  if (uniform) {
    // A row comparison is what a btree index serves as a range start. The prefix bound is implied by it, but
    // stated so an index over the leading columns applies when the last column belongs to a joined table.
    const row = (n: number) => sql`(${sql.join(keys.slice(0, n).map((k) => k.expr), sql`, `)})`;
    const vals = (n: number) => sql`(${sql.join(keys.slice(0, n).map((k, i) => param(k, last[i]!)), sql`, `)})`;
    const all = sql`${row(keys.length)} ${cmp(keys[0])} ${vals(keys.length)}`;
    const ge = sql.raw((keys[0].dir ?? "asc") === "asc" ? ">=" : "<=");
    return keys.length > 1 ? sql`${row(keys.length - 1)} ${ge} ${vals(keys.length - 1)} and ${all}` : all;
  }
  // Mixed directions or nullable keys: the lexicographic expansion (k0 after) or (k0 equal and k1 after) or ...
  const equal = (k: KeyPart, v: string | null) => (v === null ? sql`${k.expr} is null` : sql`${k.expr} = ${param(k, v)}`);
  const after = (k: KeyPart, v: string | null): SQL => {
    if (v === null) return k.nulls === "first" ? sql`${k.expr} is not null` : sql`false`;
    const beyond = sql`${k.expr} ${cmp(k)} ${param(k, v)}`;
    return k.nulls === "last" ? sql`(${beyond} or ${k.expr} is null)` : beyond;
  };
  const terms = keys.map((k, i) => sql`(${sql.join([...keys.slice(0, i).map((p, j) => equal(p, last[j])), after(k, last[i])], sql` and `)})`);
  return sql`(${sql.join(terms, sql` or `)})`;
}

export function keysetOrder(keys: readonly KeyPart[]): SQL {
  return sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.dir ?? "asc")}${k.nulls ? sql.raw(` nulls ${k.nulls}`) : sql``}`),
    sql`, `,
  );
}

/** The key columns for the select list: `expr::text as k0, ...`. */
export function keysetColumns(keys: readonly KeyPart[]): SQL {
  return sql.join(keys.map((k, i) => sql`(${k.expr})::text as ${sql.identifier(`k${i}`)}`), sql`, `);
}

export type PageParts = { after: SQL; order: SQL; keyColumns: SQL; limit: number };

export type PageOptions = {
  /** Rows per page: 1,000–5,000 keeps the embedded database (one thread) responsive between pages. */
  pageSize?: number;
  /** Told before each page is read (tests count pages with it). */
  onPage?: (index: number) => void;
};

export const DEFAULT_PAGE_SIZE = 2000;

/**
 * Every row of a keyset-paged query, page by page, read only when the consumer asks for more: `query` builds
 * one page's SQL from its parts (select `keyColumns`, filter by `after`, `order by` order, `limit`). Between
 * pages it yields to the event loop, so other requests get the embedded database's one thread in between.
 */
export async function* keysetRows<R>(
  db: Db,
  keys: readonly KeyPart[],
  query: (page: PageParts) => SQL,
  opts: PageOptions = {},
): AsyncGenerator<R> {
  const limit = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const keyColumns = keysetColumns(keys);
  const order = keysetOrder(keys);
  let last: KeyValues | null = null;
  for (let index = 0; ; index++) {
    opts.onPage?.(index);
    const result: unknown = await db.execute(query({ after: keysetAfter(keys, last), order, keyColumns, limit }));
    const rows = rowsOf<Awaited<R>>(result);
    for (const r of rows) yield r;
    if (rows.length < limit) return;
    const tail = rows[rows.length - 1] as Record<string, string | null>;
    last = keys.map((_, i) => tail[`k${i}`]);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
