// The backup file: one gzip stream of lines.
//
//   STORAGE-BACKUP 1                          the magic line and the format's version
//   {header}                                  JSON: product version, migration, database kind, what was left out
//   @table <name> <columns as JSON>           then the table's rows as COPY text, one a line
//   \.                                        the end of the table's rows (a data line never reads so: COPY escapes \)
//   @manifest {manifest}                      JSON: each table's row count and the SHA-256 of its section
//
// A section is a table's lines from its "@table" line to its "\." line, newlines included. The manifest comes last
// because its checksums are known only once every section is written; gzip's own CRC covers the whole file.

export const MAGIC = "STORAGE-BACKUP 1";
export const TABLE_PREFIX = "@table ";
export const END_OF_ROWS = "\\.";
export const MANIFEST_PREFIX = "@manifest ";
export const FILE_SUFFIX = ".storage-backup";

export type DatabaseKind = "embedded" | "postgres";

export type BackupHeader = {
  product: string;
  version: string;
  /** The last migration applied to the source: its tag and its index in drizzle's journal. */
  migration: { tag: string; idx: number };
  kind: DatabaseKind;
  createdAt: string;
  withSecrets: boolean;
  /** Without secrets: what was left out, table by table, and what stops working after a restore. */
  leftOut: { table: string; what: string; effect: string }[];
  /** Day partitions of the raw history, so that a restore makes them before it loads. */
  partitionDays: string[];
  /** Each sequence's next value, so that new rows continue where the old ones stopped. */
  sequences: { name: string; lastValue: string | null }[];
};

export type TableSummary = { name: string; columns: string[]; rows: number; sha256: string };
export type Manifest = { tables: TableSummary[] };
