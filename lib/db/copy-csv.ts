import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { CsvCellType, CsvColumn } from "@/lib/csv/columns";
import { crlfLineEnds } from "@/lib/csv/line-ends";
import { csvHeader } from "@/lib/csv/stream";
import { keysetOrder, type KeyPart, type PageParts } from "./keyset";
import type { Db } from "./types";

// A CSV export written by PostgreSQL itself: COPY (SELECT …) TO STDOUT WITH CSV of cells already formatted in
// SQL as the file writer (lib/csv) formats them, so the file is the same to the byte and Node only passes bytes
// on. COPY quotes a field exactly where csv-stringify does (a comma, a quote, CR or LF; quotes doubled) except
// the empty string, which it quotes to tell it from NULL: empty text is written as NULL, an empty cell in both.
// Its LF line ends become CRLF on the way (lib/csv/line-ends.ts).

/** One column of an export: its header, its kind (which decides the cell's format) and its SQL expression. */
export type SqlColumn = { header: string; type: CsvCellType; expr: SQL };

// formatCell's formula starters (lib/csv/columns.ts), as the code points ascii() gives of a first character (an
// integer comparison, the cheapest test of a first character in SQL).
const FORMULA_STARTS = sql.raw(
  ["=", "+", "-", "@", "\t", "\r", "\n", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]
    .map((c) => String(c.codePointAt(0)))
    .join(", "),
);

/** A value as the row reader selects it: sizes as text (exact int8), times already in the file's form. */
function valueSql(c: SqlColumn): SQL {
  switch (c.type) {
    case "integer":
    case "day":
      return sql`(${c.expr})::text`;
    case "time":
      return sql`to_char((${c.expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case "text":
    case "boolean":
      return c.expr;
    case "number":
      // float8's text is not JavaScript's (1e+21 against 1e21): such a column is formatted by the writer only.
      throw new Error(`column ${c.header}: number cells are not written in SQL`);
  }
}

/** A cell as formatCell writes it: text neutralised against formulas, empty text as an empty cell. */
function cellSql(c: SqlColumn): SQL {
  if (c.type === "text") {
    const v = sql`(${c.expr})::text`;
    return sql`case when ascii(${v}) in (${FORMULA_STARTS}) then '''' || ${v} else nullif(${v}, '') end`;
  }
  if (c.type === "boolean") return sql`case when ${c.expr} then 'true' when not ${c.expr} then 'false' end`;
  return valueSql(c);
}

/** The select list of the rows the writer formats: each value under its header's name. */
export const selectValues = (columns: readonly SqlColumn[]): SQL =>
  sql.join(
    columns.map((c) => sql`${valueSql(c)} as ${sql.identifier(c.header)}`),
    sql`, `,
  );

const selectCells = (columns: readonly SqlColumn[]): SQL =>
  sql.join(
    columns.map((c) => cellSql(c)),
    sql`, `,
  );

/** The columns as the file writer takes them, reading the values selectValues selects. */
export const csvColumnsOf = <R>(columns: readonly SqlColumn[]): CsvColumn<R>[] =>
  columns.map((c) => ({ header: c.header, type: c.type, value: (r: R) => (r as Record<string, unknown>)[c.header] }));

/**
 * One query of an export, in its keys' order: one page of it with a given select list, rows after `after`.
 * `batched`: its leading key is a workspace id, and `page` puts the batch's range of workspace ids (the
 * condition `range` makes of a column) on every table it reads by workspace, so that a batch reads only its
 * own workspaces' rows of each; not batched, one COPY writes it all (a single workspace's rows).
 */
export type CopySource = {
  page: (select: SQL, parts: PageParts, range?: WorkspaceRange) => SQL;
  keys: readonly KeyPart[];
  batched: boolean;
};

/** A batch's range of workspace ids as a condition on a column holding them. */
export type WorkspaceRange = (column: SQL) => SQL;

/** The connection pool behind `db` when it is PostgreSQL's (not the embedded database, not a transaction). */
export function copyPool(db: Db): pg.Pool | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

export type CopyCsvOptions = {
  /** Rows per COPY, about: each batch is one COPY of a range of workspaces, and a transaction of its own. */
  batchRows?: number;
  /** Told before each batch is read (tests count batches with it). */
  onBatch?: (index: number) => void;
  onError?: (err: unknown) => void;
};

export const COPY_BATCH_ROWS = 100_000;

/**
 * Opens the CSV of `sources` (read one after the other) through COPY on one connection of `pool`: the header,
 * then each source's rows in key order, a batch at a time. The first batch is started before this returns, so
 * a query that fails at once is an error response, not a 200 with an empty file. Cancelling the stream closes
 * the connection, which ends the COPY under way in the server.
 */
export async function openCopyCsv(
  pool: pg.Pool,
  columns: readonly SqlColumn[],
  sources: () => AsyncIterable<CopySource>,
  opts: CopyCsvOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const client = await pool.connect();
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    client.release(err);
  };
  const chunks = copyChunks(client, selectCells(columns), sources, opts);
  let first: IteratorResult<Uint8Array>;
  try {
    first = await chunks.next();
  } catch (err) {
    release(err as Error);
    throw err;
  }
  const header = new TextEncoder().encode(csvHeader(columns));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(header);
        if (!first.done) controller.enqueue(first.value);
        else {
          release();
          controller.close();
        }
      },
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) {
            release();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (err) {
          opts.onError?.(err);
          release(err as Error);
          throw err;
        }
      },
      cancel() {
        // A connection left in the middle of a COPY is not reusable: it is closed, and the server stops.
        release(new Error("download cancelled"));
        chunks.return(undefined).catch(() => {});
      },
    },
    { highWaterMark: 1 },
  );
}

// A batch covers a range of workspace ids, as many workspaces as make about `batchRows` rows by the rows per
// workspace seen so far (1,000 before the first batch). Cutting by the leading key needs no read of the rows
// themselves to find where the next batch starts: one look at the workspaces' primary key.
const FIRST_ROWS_PER_WORKSPACE = 1000;
const MAX_WORKSPACES_PER_BATCH = 100_000;
// A page with no limit (LIMIT takes a number; one beyond any table's rows is the same as none).
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The CSV bytes of every batch. A batch is a read-only repeatable-read transaction: the id of the last
 * workspace it covers, then the COPY of the rows of the workspaces after the last batch's up to that one.
 */
async function* copyChunks(
  client: pg.PoolClient,
  cells: SQL,
  sources: () => AsyncIterable<CopySource>,
  opts: CopyCsvOptions,
): AsyncGenerator<Uint8Array> {
  const batchRows = opts.batchRows ?? COPY_BATCH_ROWS;
  const toCrlf = crlfLineEnds();
  let batch = 0;
  let rows = 0;
  let workspaces = 0;
  for await (const source of sources()) {
    const order = keysetOrder(source.keys);
    let from: string | null = null;
    for (;;) {
      const perWorkspace = workspaces ? Math.max(rows / workspaces, 1) : FIRST_ROWS_PER_WORKSPACE;
      const span = Math.min(Math.max(Math.round(batchRows / perWorkspace), 1), MAX_WORKSPACES_PER_BATCH);
      opts.onBatch?.(batch++);
      await client.query("begin isolation level repeatable read read only");
      let to: string | null = null;
      let range: WorkspaceRange | undefined;
      if (source.batched) {
        const where = from === null ? "" : "where id > $1";
        const end: pg.QueryResult<{ id: string }> = await client.query(
          `select id from workspaces ${where} order by id offset ${span - 1} limit 1`,
          from === null ? [] : [from],
        );
        to = end.rows[0]?.id ?? null;
        const [above, upTo] = [from, to];
        range = (column) =>
          sql`(${above === null ? sql`true` : sql`${column} > ${above}`} and ${upTo === null ? sql`true` : sql`${column} <= ${upTo}`})`;
      }
      const page = source.page(cells, { after: sql`true`, order, keyColumns: sql``, limit: NO_LIMIT }, range);
      const copy = client.query(copyTo(`copy (${inline(page)}) to stdout with csv`));
      for await (const chunk of copy as AsyncIterable<Buffer>) yield toCrlf(chunk);
      await client.query("commit");
      rows += copy.rowCount;
      workspaces += span;
      if (to === null) break;
      from = to;
    }
  }
}

const dialect = new PgDialect();

/** A query with its parameters written in as literals (COPY takes no parameters), quoted by node-postgres. */
function inline(q: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(q);
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

function literal(v: unknown): string {
  if (typeof v === "string") return pg.escapeLiteral(v);
  if (typeof v === "number" && Number.isFinite(v)) return `(${v})`;
  if (Array.isArray(v)) return `array[${v.map(literal).join(", ")}]`;
  throw new Error(`cannot write ${typeof v} into a COPY query`);
}
