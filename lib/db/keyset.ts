import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { ROW_BATCHES, type RowBatches } from "@/lib/streams/batches";
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
  /**
   * A column the page already selects holding this key's value as text (`expr::text`, exactly): the next page
   * starts from it, and no copy is selected (a copy of each key is one more value per row to send and parse).
   */
  column?: string;
};

/** The last row's key values as text (its `k0`, `k1`, ... columns, or the columns the keys name). */
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
    const row = (n: number) =>
      sql`(${sql.join(
        keys.slice(0, n).map((k) => k.expr),
        sql`, `,
      )})`;
    const vals = (n: number) =>
      sql`(${sql.join(
        keys.slice(0, n).map((k, i) => param(k, last[i]!)),
        sql`, `,
      )})`;
    const all = sql`${row(keys.length)} ${cmp(keys[0])} ${vals(keys.length)}`;
    const ge = sql.raw((keys[0].dir ?? "asc") === "asc" ? ">=" : "<=");
    return keys.length > 1 ? sql`${row(keys.length - 1)} ${ge} ${vals(keys.length - 1)} and ${all}` : all;
  }
  // Mixed directions or nullable keys: the lexicographic expansion (k0 after) or (k0 equal and k1 after) or ...
  const equal = (k: KeyPart, v: string | null) =>
    v === null ? sql`${k.expr} is null` : sql`${k.expr} = ${param(k, v)}`;
  const after = (k: KeyPart, v: string | null): SQL => {
    if (v === null) return k.nulls === "first" ? sql`${k.expr} is not null` : sql`false`;
    const beyond = sql`${k.expr} ${cmp(k)} ${param(k, v)}`;
    return k.nulls === "last" ? sql`(${beyond} or ${k.expr} is null)` : beyond;
  };
  const terms = keys.map(
    (k, i) => sql`(${sql.join([...keys.slice(0, i).map((p, j) => equal(p, last[j])), after(k, last[i])], sql` and `)})`,
  );
  return sql`(${sql.join(terms, sql` or `)})`;
}

export function keysetOrder(keys: readonly KeyPart[]): SQL {
  return sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.dir ?? "asc")}${k.nulls ? sql.raw(` nulls ${k.nulls}`) : sql``}`),
    sql`, `,
  );
}

/**
 * The key columns to add to the select list, their leading comma included: `, (expr)::text as k0, ...` for
 * each key that names no column of its own (nothing when they all do).
 */
export function keysetColumns(keys: readonly KeyPart[]): SQL {
  return sql.join(keys.flatMap((k, i) => (k.column ? [] : [sql`, (${k.expr})::text as ${sql.identifier(`k${i}`)}`])));
}

const keyColumnOf = (k: KeyPart, i: number) => k.column ?? `k${i}`;

export type PageParts = { after: SQL; order: SQL; keyColumns: SQL; limit: number };

export type PageOptions = {
  /** Rows per page: 1,000–5,000 keeps the embedded database (one thread) responsive between pages. */
  pageSize?: number;
  /** Told before each page is read (tests count pages with it). */
  onPage?: (index: number) => void;
};

export const DEFAULT_PAGE_SIZE = 2000;

/**
 * Every page of a keyset-paged query, read only when the consumer asks for more: `query` builds one page's SQL
 * from its parts (`keyColumns` after its last column, filter by `after`, `order by` order, `limit`). The next
 * page is asked for as soon as a full page arrives, so Postgres reads it while the consumer works through this
 * one (two pages in memory at most; read one after the other, the export's process sat idle about 40 % of the
 * time). Between pages it yields to the event loop, so other requests get the embedded database's one thread.
 */
async function* keysetPages<R>(
  db: Db,
  keys: readonly KeyPart[],
  query: (page: PageParts) => SQL,
  opts: PageOptions,
): AsyncGenerator<R[]> {
  const limit = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const keyColumns = keysetColumns(keys);
  const order = keysetOrder(keys);
  let index = 0;
  const read = (last: KeyValues | null): Promise<unknown> => {
    opts.onPage?.(index++);
    const page = db.execute(query({ after: keysetAfter(keys, last), order, keyColumns, limit }));
    // A consumer that stops early leaves the page read ahead unawaited: its failure is nobody's concern.
    page.catch(() => {});
    return page;
  };
  let next = read(null);
  for (;;) {
    // Each page is SQL its caller composed (columns, keyset condition, order): the caller types its rows.
    const rows = rowsOf<R>(await next);
    const full = rows.length === limit;
    if (full) {
      const tail = rows[rows.length - 1] as Record<string, string | null>;
      next = read(keys.map((k, i) => tail[keyColumnOf(k, i)]));
    }
    if (rows.length) yield rows;
    if (!full) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Every row of a keyset-paged query (see keysetPages), also offered a page at a time to the CSV writer. */
export function keysetRows<R>(
  db: Db,
  keys: readonly KeyPart[],
  query: (page: PageParts) => SQL,
  opts: PageOptions = {},
): AsyncGenerator<R> & RowBatches<R> {
  const pages = () => keysetPages<R>(db, keys, query, opts);
  const rows = (async function* () {
    for await (const page of pages()) yield* page;
  })();
  return Object.assign(rows, { [ROW_BATCHES]: pages });
}
