import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import { PORTABLE_TEXT } from "@/lib/backup/backup";
import { pgConn, pgliteConn, type Conn } from "@/lib/backup/connection";
import { BACKED_UP } from "@/lib/backup/registry";

/** A temporary folder for a test's files and data folders; removed by the returned function. */
export function scratchDir(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storage-backup-"));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Every backed-up table's rows as text, sorted, and every sequence's value: an oracle independent of the backup's
 * own reader (a whole row as PostgreSQL prints it).
 */
export async function contentsOf(conn: Conn): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of BACKED_UP)
    out[table] = (await conn.query<{ r: string }>(`select t::text as r from "${table}" t order by 1`)).map((x) => x.r);
  out["(sequences)"] = (
    await conn.query<{ r: string }>(`select sequencename || '=' || coalesce(last_value::text, '') as r
      from pg_sequences where schemaname = 'public' order by 1`)
  ).map((x) => x.r);
  return out;
}

/** The contents of an embedded database's folder, read without migrating it. */
export async function folderContents(dir: string) {
  const { PGlite } = await import("@electric-sql/pglite");
  const client: PGlite = new PGlite(dir);
  try {
    return await client.transaction(async (tx) => {
      await tx.exec(PORTABLE_TEXT);
      return contentsOf(pgliteConn(tx));
    });
  } finally {
    await client.close();
  }
}

export async function postgresContents(url: string) {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    await client.query(PORTABLE_TEXT);
    return await contentsOf(pgConn(client));
  } finally {
    await client.query("rollback").catch(() => {});
    await client.end();
  }
}

/** Rewrites the uncompressed lines of a backup file (a test's tampering), compressed again. */
export function rewriteBackup(from: string, to: string, edit: (lines: string[]) => string[]) {
  const lines = gunzipSync(fs.readFileSync(from)).toString("utf8").split("\n");
  fs.writeFileSync(to, gzipSync(edit(lines).join("\n")));
}
