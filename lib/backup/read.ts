import "server-only";
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import {
  END_OF_ROWS,
  MAGIC,
  MANIFEST_PREFIX,
  TABLE_PREFIX,
  type BackupHeader,
  type Manifest,
  type TableSummary,
} from "./format";
import { TABLES } from "./registry";
import { readJournal } from "./schema-info";

/** A file refused: what is wrong and where. Nothing was written when a restore throws it. */
export class BadBackupError extends Error {
  name = "BadBackupError";
}

export type ReadHandlers = {
  /** Called once the header is read and accepted; may refuse it by throwing. */
  header?: (header: BackupHeader) => Promise<void> | void;
  /** Consumes one table's rows (COPY text lines ending in "\n"); drained when absent. */
  rows?: (table: string, columns: string[], lines: AsyncIterable<Buffer>) => Promise<void>;
  /** The manifest of a file already checked: each section is compared with it as soon as it ends. */
  expected?: Manifest;
};

export type ReadResult = { header: BackupHeader; manifest: Manifest; bytes: number };

/**
 * Reads a whole backup from `input` and verifies it: the gzip stream and its CRC, the magic line, the header
 * (a schema this release knows), each table's section against the manifest's row count and SHA-256.
 */
export async function readBackup(input: Readable, handlers: ReadHandlers = {}): Promise<ReadResult> {
  const gunzip = createGunzip();
  let compressed = 0;
  input.on("data", (c: Buffer) => (compressed += c.length));
  input.on("error", (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  const lines = numberedLines(gunzip);
  try {
    return { ...(await readLines(lines, handlers)), bytes: compressed };
  } catch (err) {
    if (err instanceof BadBackupError) throw err;
    const code = (err as { code?: string }).code ?? "";
    if (code === "Z_DATA_ERROR" && compressed <= 1024 && /header/.test((err as Error).message))
      throw new BadBackupError("Not a backup file: it is not gzip-compressed.");
    if (code.startsWith("Z_"))
      throw new BadBackupError(
        `The file is damaged or cut short at about byte ${compressed} of the compressed file: ${(err as Error).message}.`,
      );
    throw err;
  } finally {
    input.unpipe(gunzip);
    input.destroy();
  }
}

type Line = { text: Buffer; n: number; complete: boolean };

async function* numberedLines(stream: AsyncIterable<Buffer>): AsyncGenerator<Line> {
  let rest = Buffer.alloc(0);
  let n = 0;
  for await (const chunk of stream) {
    let buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      yield { text: buf.subarray(0, nl + 1), n: ++n, complete: true };
      buf = buf.subarray(nl + 1);
    }
    rest = Buffer.from(buf);
  }
  if (rest.length) yield { text: rest, n: ++n, complete: false };
}

async function readLines(lines: AsyncGenerator<Line>, handlers: ReadHandlers): Promise<Omit<ReadResult, "bytes">> {
  const next = async (what: string): Promise<Line> => {
    const { value, done } = await lines.next();
    if (done || !value.complete)
      throw new BadBackupError(
        `The file is cut short: it ends ${value ? `inside line ${value.n}` : "there"}, ${what}.`,
      );
    return value;
  };
  const first = await next("before its first line");
  const magic = first.text.toString("utf8").trimEnd();
  if (magic !== MAGIC)
    throw new BadBackupError(
      magic.startsWith("STORAGE-BACKUP ")
        ? `The file is in backup format "${magic}", which this release cannot read (it reads "${MAGIC}").`
        : "Not a backup file: its first line is not a storage dashboard backup's.",
    );
  const header = parseJson<BackupHeader>(await next("in its header"), "header");
  checkSchema(header);
  await handlers.header?.(header);
  const sections: TableSummary[] = [];
  for (;;) {
    const line = await next(`after ${sections.length ? `table ${sections.at(-1)!.name}` : "its header"}`);
    const text = line.text.toString("utf8");
    if (text.startsWith(MANIFEST_PREFIX)) {
      const manifest = parseJson<Manifest>({ ...line, text: line.text.subarray(MANIFEST_PREFIX.length) }, "manifest");
      const { done, value } = await lines.next();
      if (!done) throw new BadBackupError(`Unexpected data after the manifest, at line ${value.n}.`);
      compare(sections, manifest);
      return { header, manifest };
    }
    if (!text.startsWith(TABLE_PREFIX)) throw new BadBackupError(`Line ${line.n} should start a table; it does not.`);
    const [, table, cols] = /^@table (\S+) (.*)\n$/s.exec(text) ?? [];
    if (!table || !TABLES[table]?.backup)
      throw new BadBackupError(`Line ${line.n} starts table "${table}", which this release does not back up.`);
    const columns = parseJson<string[]>({ ...line, text: Buffer.from(cols) }, `table ${table}'s columns`);
    const summary = await readSection(next, line, table, columns, handlers);
    const expected = handlers.expected?.tables[sections.length];
    if (expected) compare([summary], { tables: [expected] });
    sections.push(summary);
  }
}

async function readSection(
  next: (what: string) => Promise<Line>,
  first: Line,
  table: string,
  columns: string[],
  handlers: ReadHandlers,
): Promise<TableSummary> {
  const hash = createHash("sha256").update(first.text);
  let rows = 0;
  async function* body(): AsyncGenerator<Buffer> {
    for (;;) {
      const line = await next(`in table ${table} after ${rows} rows`);
      hash.update(line.text);
      if (line.text.length === END_OF_ROWS.length + 1 && line.text.toString() === `${END_OF_ROWS}\n`) return;
      rows++;
      yield line.text;
    }
  }
  const rowsOf = body();
  await handlers.rows?.(table, columns, rowsOf);
  // Drained when nothing consumes it (a check), or a consumer stopped early: the section is read whole.
  for await (const line of rowsOf) void line;
  return { name: table, columns, rows, sha256: hash.digest("hex") };
}

function compare(sections: TableSummary[], manifest: Manifest) {
  if (manifest.tables.length !== sections.length)
    throw new BadBackupError(`The manifest lists ${manifest.tables.length} tables; the file holds ${sections.length}.`);
  for (const [i, s] of sections.entries()) {
    const m = manifest.tables[i];
    if (m.name !== s.name) throw new BadBackupError(`Table ${i + 1} is ${s.name}; the manifest says ${m.name}.`);
    if (m.rows !== s.rows)
      throw new BadBackupError(`Table ${s.name} holds ${s.rows} rows; the manifest says ${m.rows}.`);
    if (m.sha256 !== s.sha256)
      throw new BadBackupError(`Table ${s.name}'s section is damaged: its SHA-256 is not the manifest's.`);
  }
}

function parseJson<T>(line: Line, what: string): T {
  try {
    return JSON.parse(line.text.toString("utf8")) as T;
  } catch {
    throw new BadBackupError(`The ${what} on line ${line.n} is not valid JSON.`);
  }
}

/** Refuses a file from a schema this release does not know. */
function checkSchema(header: BackupHeader) {
  const journal = readJournal();
  const known = journal[header.migration?.idx];
  if (!known || known.tag !== header.migration.tag)
    throw new BadBackupError(
      `The backup is from a newer release (${header.version}, migration ${header.migration?.tag}); this release ` +
        `knows migrations up to ${journal.at(-1)!.tag}. Restore it with ${header.version} or later.`,
    );
}
