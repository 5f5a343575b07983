// The streaming writer: a pull-based ReadableStream that asks its rows for more only when the reader wants
// more, so a slow client slows the database reads, a disconnected one stops them (cancel ends the iterator),
// and memory stays that of one chunk whatever the size of the export. Cells are quoted by csv-stringify
// (RFC 4180: CRLF line ends, fields with a comma, quote or line break in double quotes, quotes doubled).
import { stringify } from "csv-stringify/sync";
import { rowCursor } from "@/lib/streams/batches";
import { formatRow, type CsvTable } from "./columns";

export type CsvStreamOptions = {
  /** Rows per chunk written to the stream (a chunk is one csv-stringify call and one enqueue). */
  chunkRows?: number;
  /** Called when reading rows fails after the response started (the client sees a cut-off download). */
  onError?: (err: unknown) => void;
};

// Formula escaping is done per column (columns.ts): csv-stringify's own escape_formulas would also prefix
// numbers written as strings, "-1024" among them. quote_record_delimiter must be set: once record_delimiter
// is, csv-stringify stops quoting a lone "\n" or "\r" inside a field, and a hostile name would split a row.
// One call per chunk of rows keeps its per-call cost out of the per-row path.
const STRINGIFY = { record_delimiter: "windows", quote_record_delimiter: true, escape_formulas: false } as const;

/** The header line as the writer writes it (also for a file another writer fills, such as PostgreSQL's COPY). */
export const csvHeader = (columns: readonly { header: string }[]): string =>
  stringify([columns.map((c) => c.header)], STRINGIFY);

/**
 * Opens an export as a stream of UTF-8 CSV: the header, then the rows. The first row is read before this
 * returns, so a query that fails at once (a database that is down) still becomes an error response instead of
 * a 200 with an empty file.
 */
export async function openCsvStream(exp: CsvTable, opts: CsvStreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const chunkRows = opts.chunkRows ?? 1000;
  const it = rowCursor(exp.rows);
  const encoder = new TextEncoder();
  let pending: IteratorResult<unknown> | null = await it.next();
  let header = true;
  let finished = false;

  const stop = async () => {
    if (finished) return;
    finished = true;
    await it.return();
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const lines: string[][] = [];
        const head = header ? csvHeader(exp.columns) : "";
        header = false;
        let rows = 0;
        try {
          while (rows < chunkRows && !finished) {
            let next = pending ?? it.next();
            pending = null;
            if (next instanceof Promise) next = await next;
            if (next.done) {
              finished = true;
              break;
            }
            lines.push(formatRow(exp.columns, next.value));
            rows++;
          }
        } catch (err) {
          opts.onError?.(err);
          await stop().catch(() => {});
          throw err;
        }
        if (head || lines.length)
          controller.enqueue(encoder.encode(head + (lines.length ? stringify(lines, STRINGIFY) : "")));
        if (finished) controller.close();
      },
      async cancel() {
        await stop();
      },
    },
    // One chunk of read-ahead: the next page is read while the last one is written, and no further.
    { highWaterMark: 1 },
  );
}
