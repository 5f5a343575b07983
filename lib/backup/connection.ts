import "server-only";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { ClientBase } from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { copyCell, type DatabaseKind } from "./format";

// The one connection a backup reads from or a restore writes to, on either database. PostgreSQL copies rows with
// COPY through pg-copy-streams, streamed both ways. The embedded database's COPY buffers the whole table in
// memory, so a backup reads it in keyset pages (each cell as PostgreSQL's text, escaped as COPY does) and a
// restore loads it in COPY batches of a few megabytes.

/** What a backup reads of one table: the expression of each column and the rows left out. */
export type TableRead = { table: string; columns: string[]; expressions: string[]; where: string; keys: string[] };

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

const PAGE_ROWS = 2_000;
const LOAD_BATCH_BYTES = 4 << 20;

export function pgliteConn(client: PGlite | Transaction): Conn {
  const query = async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows;
  return {
    kind: "embedded",
    query,
    exec: async (text) => void (await client.exec(text)),
    async *copyOut(r) {
      const keys = r.keys.map(ident);
      const cells = r.expressions.map((e) => `(${e})::text`);
      let after: string[] | null = null;
      for (;;) {
        const page: { rows: string[][] } = await client.query<string[]>(
          `select ${[...keys.map((k) => `${k}::text`), ...cells].join(", ")} from ${ident(r.table)}
           where (${r.where})${after ? ` and (${keys.join(", ")}) > (${keys.map((_, i) => `$${i + 1}`).join(", ")})` : ""}
           order by ${keys.join(", ")} limit ${PAGE_ROWS}`,
          after ?? [],
          { rowMode: "array" },
        );
        if (!page.rows.length) return;
        yield Buffer.from(
          page.rows.map((row) => row.slice(keys.length).map(copyCell).join("\t") + "\n").join(""),
          "utf8",
        );
        if (page.rows.length < PAGE_ROWS) return;
        after = page.rows.at(-1)!.slice(0, keys.length);
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
