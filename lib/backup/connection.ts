import "server-only";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { ClientBase } from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import type { DatabaseKind } from "./format";

// The one connection a backup reads from or a restore writes to, on either database. PostgreSQL copies rows with
// COPY through pg-copy-streams, streamed both ways. The embedded database's COPY buffers its whole output in
// memory, so a backup copies each table a few megabytes of its heap at a time (a range of pages by ctid, read by
// a TID range scan), and a restore loads it in COPY batches of a few megabytes.

/** What a backup reads of one table: the expression of each column and the rows left out. */
export type TableRead = { table: string; columns: string[]; expressions: string[]; where: string };

export type Conn = {
  kind: DatabaseKind;
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Statements without parameters, several at once. */
  exec(text: string): Promise<void>;
  /** The table's rows as COPY text lines, each ending in "\n". */
  copyOut(read: TableRead): AsyncIterable<Buffer>;
  /** Loads COPY text lines (each ending in "\n") into the table's columns. */
  copyIn(table: string, columns: string[], lines: AsyncIterable<Buffer>): Promise<void>;
};

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const selectOf = (r: TableRead) => `select ${r.expressions.join(", ")} from ${ident(r.table)} where ${r.where}`;

export function pgConn(client: ClientBase): Conn {
  return {
    kind: "postgres",
    query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
    exec: async (text) => void (await client.query(text)),
    copyOut: (r) => client.query(copyTo(`copy (${selectOf(r)}) to stdout`)),
    async copyIn(table, columns, lines) {
      const sink = client.query(copyFrom(`copy ${ident(table)} (${columns.map(ident).join(", ")}) from stdin`));
      await pipeline(Readable.from(lines), sink);
    },
  };
}

// Pages of a table's heap copied at once on the embedded database: 4 MiB of heap, a few MiB of COPY text.
//
// Keyset pages (`where (key) > (last) order by key limit n`) were quadratic here: on a table whose rows sit in
// one partition without a usable index order (the default partition of the history), every page sorted and
// formatted the rest of the table again. A fleet of 100 workspaces over 30 days (31,471 root_usage rows, 54 MB of
// COPY text) took 24.5 s for that table in pages of 2,000 rows; by page ranges it is one pass, 5.7 s, the time of
// one whole-table COPY. Rows come in the heap's order, which a restore does not need to be the key's.
const CHUNK_BLOCKS = 512;
const LOAD_BATCH_BYTES = 4 << 20;

export function pgliteConn(client: PGlite | Transaction): Conn {
  const query = async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows;
  return {
    kind: "embedded",
    query,
    exec: async (text) => void (await client.exec(text)),
    async *copyOut(r) {
      // A plain table, or each partition of a partitioned one (pg_partition_tree has no rows for a plain table).
      // The caller's transaction holds the only connection, so their sizes stay as read.
      const leaves = await query<{ leaf: string; blocks: number }>(
        `select oid::regclass::text as leaf, (pg_relation_size(oid) / current_setting('block_size')::int)::int
           as blocks from (select oid from pg_class where oid = $1::regclass and relkind = 'r'
             union all select relid from pg_partition_tree($1::regclass) where isleaf) t order by 1`,
        [`public.${ident(r.table)}`],
      );
      for (const { leaf, blocks } of leaves)
        for (let from = 0; from < blocks; from += CHUNK_BLOCKS) {
          const { blob } = await client.query(
            `copy (select ${r.expressions.join(", ")} from only ${leaf} where ctid >= '(${from},0)'
               and ctid < '(${from + CHUNK_BLOCKS},0)' and (${r.where})) to '/dev/blob'`,
          );
          if (blob?.size) yield Buffer.from(await blob.arrayBuffer());
        }
    },
    async copyIn(table, columns, lines) {
      const load = async (batch: Buffer[]) =>
        client.query(`copy ${ident(table)} (${columns.map(ident).join(", ")}) from '/dev/blob'`, [], {
          blob: new Blob(batch as Uint8Array<ArrayBuffer>[]),
        });
      let batch: Buffer[] = [];
      let bytes = 0;
      for await (const line of lines) {
        batch.push(line);
        bytes += line.length;
        if (bytes >= LOAD_BATCH_BYTES) {
          await load(batch);
          [batch, bytes] = [[], 0];
        }
      }
      if (batch.length) await load(batch);
    },
  };
}
