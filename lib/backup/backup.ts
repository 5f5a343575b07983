import "server-only";
import { createHash } from "node:crypto";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pkg from "@/package.json";
import type { Conn } from "./connection";
import {
  END_OF_ROWS,
  MAGIC,
  MANIFEST_PREFIX,
  TABLE_PREFIX,
  type BackupHeader,
  type Manifest,
  type TableSummary,
} from "./format";
import { BACKED_UP, secretsOf, TABLES } from "./registry";
import { appliedMigration, columnsOf, readJournal, sequencesOf, tablesOf } from "./schema-info";

export type BackupOptions = {
  withSecrets?: boolean;
  /** Called after each table, for progress on a terminal. */
  onTable?: (table: TableSummary, index: number, of: number) => void;
};
export type BackupSummary = { header: BackupHeader; manifest: Manifest; bytes: number; ms: number };

export class BackupError extends Error {
  name = "BackupError";
}

/** Settings that make every cell's text the same on either database and in any session. */
export const PORTABLE_TEXT =
  "set local timezone = 'UTC'; set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'; " +
  "set local extra_float_digits = 1; set local bytea_output = 'hex'";

/**
 * Writes a backup of the database `conn` reads to `out`. The caller has opened one repeatable-read transaction on
 * `conn` (on the embedded database, its only connection's transaction), so every table is read from one snapshot.
 * Never migrates: a database of a migration this release does not know is refused.
 */
export async function writeBackup(conn: Conn, out: Writable, opts: BackupOptions = {}): Promise<BackupSummary> {
  const started = performance.now();
  await conn.exec(PORTABLE_TEXT);
  const header = await headerOf(conn, opts.withSecrets ?? false);
  // A database of an older migration lacks the newer tables.
  const present = new Set(await tablesOf(conn));
  const tables = BACKED_UP.filter((t) => present.has(t));
  const manifest: Manifest = { tables: [] };
  let bytes = 0;
  async function* lines(): AsyncGenerator<Buffer> {
    yield Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`);
    for (const [i, table] of tables.entries()) {
      const summary = yield* section(conn, table, header.withSecrets);
      manifest.tables.push(summary);
      opts.onTable?.(summary, i, tables.length);
    }
    yield Buffer.from(`${MANIFEST_PREFIX}${JSON.stringify(manifest)}\n`);
  }
  const gzip = createGzip();
  gzip.on("data", (chunk: Buffer) => (bytes += chunk.length));
  await pipeline(Readable.from(lines()), gzip, out);
  return { header, manifest, bytes, ms: Math.round(performance.now() - started) };
}

async function* section(conn: Conn, table: string, withSecrets: boolean): AsyncGenerator<Buffer, TableSummary> {
  const columns = await columnsOf(conn, table);
  const secrets = withSecrets ? undefined : secretsOf(table);
  const expressions = columns.map((c) => secrets?.columns?.[c] ?? `"${c}"`);
  const where = secrets?.rows ? `not (${secrets.rows})` : "true";
  const hash = createHash("sha256");
  const emit = (buf: Buffer) => (hash.update(buf), buf);
  yield emit(Buffer.from(`${TABLE_PREFIX}${table} ${JSON.stringify(columns)}\n`));
  let rows = 0;
  for await (const chunk of conn.copyOut({ table, columns, expressions, where })) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    yield emit(chunk);
  }
  yield emit(Buffer.from(`${END_OF_ROWS}\n`));
  return { name: table, columns, rows, sha256: hash.digest("hex") };
}

async function headerOf(conn: Conn, withSecrets: boolean): Promise<BackupHeader> {
  const applied = await appliedMigration(conn);
  const migration = readJournal().find((m) => m.when === applied?.when);
  if (!applied) throw new BackupError("The database has no schema: there is nothing to back up.");
  if (!migration)
    throw new BackupError(
      `The database was migrated by a newer release (migration of ${new Date(applied.when).toISOString()}), ` +
        `which this release does not know: back it up with that release.`,
    );
  const unknown = (await tablesOf(conn)).filter((t) => !(t in TABLES));
  if (unknown.length) throw new BackupError(`Tables this release does not know: ${unknown.join(", ")}.`);
  const partitions = await conn.query<{ name: string }>(`select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('public.reports') order by 1`);
  return {
    product: pkg.name,
    version: pkg.version,
    migration: { tag: migration.tag, idx: migration.idx },
    kind: conn.kind,
    createdAt: new Date().toISOString(),
    withSecrets,
    leftOut: withSecrets
      ? []
      : BACKED_UP.flatMap((table) => {
          const s = secretsOf(table);
          if (!s) return [];
          const what = [
            s.rows && (s.rows === "true" ? "every row" : `rows where ${s.rows}`),
            ...Object.keys(s.columns ?? {}),
          ];
          return [{ table, what: what.filter(Boolean).join(", "), effect: s.effect }];
        }),
    partitionDays: partitions.flatMap(({ name }) => {
      const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(name);
      return m ? [`${m[1]}-${m[2]}-${m[3]}`] : [];
    }),
    sequences: (await sequencesOf(conn)).map((s) => ({ name: s.name, lastValue: s.lastValue })),
  };
}
