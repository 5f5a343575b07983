// What an export is: column definitions and an async iterable of rows. Each column says what kind of value it
// holds, and the kind decides how a cell is written: text is neutralised against spreadsheet formulas, numbers
// and times never are (so -1024 stays a number). No database code here: any reader can feed it.

/**
 * text: free text (names, paths, messages: reporters' input, hostile until written);
 * integer: an exact whole number (bytes, counts); number: any finite number (rates, ratios);
 * time: an instant, written ISO 8601 in UTC; day: a UTC calendar day "YYYY-MM-DD"; boolean: true/false.
 */
export type CsvCellType = "text" | "integer" | "number" | "time" | "day" | "boolean";

export type CsvColumn<R> = { header: string; type: CsvCellType; value: (row: R) => unknown };

export type CsvExport<R> = {
  /** The download's file name, e.g. "usage-2026-01-01-2026-01-31.csv". */
  filename: string;
  columns: readonly CsvColumn<R>[];
  rows: AsyncIterable<R> | Iterable<R>;
  /**
   * Where the database can write the same file itself (PostgreSQL's COPY): opens it, header included, byte for
   * byte what the columns would write of the rows. The rows are then not read.
   */
  open?: (onError: (err: unknown) => void) => Promise<ReadableStream<Uint8Array>>;
};

/** Any export, its row type checked where it was built (a CsvExport<R> is one). */
export type SomeCsvExport = {
  filename: string;
  columns: readonly CsvColumn<never>[];
  rows: AsyncIterable<unknown> | Iterable<unknown>;
  open?: (onError: (err: unknown) => void) => Promise<ReadableStream<Uint8Array>>;
};

export type CsvTable = Pick<SomeCsvExport, "columns" | "rows">;

/** Columns and the rows they read, checked against each other (rows first, so they decide the row type). */
export const csvTable = <R>(rows: AsyncIterable<R> | Iterable<R>, columns: readonly CsvColumn<R>[]): CsvTable => ({
  columns,
  rows,
});

/** Shorthand for a column list: `col("bytes", "integer", (r) => r.bytes)`. */
export const col = <R>(header: string, type: CsvCellType, value: (row: R) => unknown): CsvColumn<R> => ({
  header,
  type,
  value,
});

// A spreadsheet runs a cell as a formula when it starts with one of these (the full-width forms too, which
// some normalise to ASCII). OWASP's advice: prefix a single quote so the cell stays text.
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A time already as the file writes it (toISOString's form), passed through without a parse. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

class CsvCellError extends Error {
  constructor(type: CsvCellType, value: unknown) {
    super(`Not a valid ${type} cell: ${JSON.stringify(String(value)).slice(0, 80)}`);
    this.name = "CsvCellError";
  }
}

/**
 * One cell's text. Numeric kinds accept numbers, bigints and numeric strings (exact int8 values read as text)
 * and refuse anything else, so a value in a number column can never smuggle text past the neutralising.
 */
export function formatCell(type: CsvCellType, value: unknown): string {
  if (value === null || value === undefined) return "";
  switch (type) {
    case "text":
      return neutralise(String(value));
    case "integer":
      if (typeof value === "bigint") return value.toString();
      if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
      if (typeof value === "string" && INTEGER.test(value)) return value;
      throw new CsvCellError(type, value);
    case "number":
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      if (typeof value === "bigint") return value.toString();
      if (typeof value === "string" && NUMBER.test(value)) return value;
      throw new CsvCellError(type, value);
    case "time": {
      if (typeof value === "string" && ISO_UTC.test(value)) return value;
      const t = value instanceof Date ? value : new Date(value as string | number);
      if (Number.isNaN(t.getTime())) throw new CsvCellError(type, value);
      return t.toISOString();
    }
    case "day":
      if (value instanceof Date) return value.toISOString().slice(0, 10);
      if (typeof value === "string" && DAY.test(value)) return value;
      throw new CsvCellError(type, value);
    case "boolean":
      return value ? "true" : "false";
  }
}

/** One row's cells as text, in column order. */
export function formatRow(columns: readonly CsvColumn<never>[], row: unknown): string[] {
  return columns.map((c) => formatCell(c.type, c.value(row as never)));
}
