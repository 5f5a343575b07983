// What the backup and restore commands act on: DATABASE_URL's PostgreSQL, else the embedded database's folder.
import prettyBytes from "pretty-bytes";
import type { Target } from "@/lib/backup/run";
import { config } from "@/lib/config";
import { dataDir } from "@/lib/db";

export const configuredTarget = (): Target => {
  const { url } = config().database;
  return url ? { kind: "postgres", url } : { kind: "embedded", dir: dataDir() };
};

export const describeTarget = (t: Target) =>
  t.kind === "postgres"
    ? `PostgreSQL at ${new URL(t.url).host}${new URL(t.url).pathname}`
    : `the embedded database in ${t.dir}`;

/** Progress on a terminal: one line redrawn in place; nothing into a file or a pipe. */
export function progress(verb: string) {
  return (table: string, rows: number, index: number, of: number) => {
    if (process.stderr.isTTY)
      process.stderr.write(`\r\x1b[K${verb} ${index + 1}/${of}: ${table} (${rows.toLocaleString("en")} rows)`);
    if (process.stderr.isTTY && index + 1 === of) process.stderr.write("\r\x1b[K");
  };
}

export const sizeOf = (bytes: number) => `${prettyBytes(bytes)} (${bytes.toLocaleString("en")} bytes)`;

/** Prints a failure without a stack (the message says what is wrong) and sets the exit code. */
export function fail(err: unknown): void {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
}
