// Rows handed over a page at a time. Every `await` of a row costs a promise, and in the server each promise also
// runs the async-context hooks that request-scoped state (Better Auth's) switches on: per row of an export that
// was as much CPU as writing the row. A source that reads in pages can offer them whole under ROW_BATCHES; the
// CSV writer then awaits once a page and takes the page's rows synchronously. Other readers see plain rows.

export const ROW_BATCHES: unique symbol = Symbol("rowBatches");

/** A row source that can also hand its rows over a page at a time (an async iterator of non-empty arrays). */
export type RowBatches<R> = { [ROW_BATCHES]: () => AsyncIterator<readonly R[]> };

/** Row after row: synchronously while the page in hand lasts, a promise when the next must be read. */
export type RowCursor = {
  next(): IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
  return(): unknown;
};

const isBatched = (rows: object): rows is RowBatches<unknown> =>
  typeof (rows as Partial<RowBatches<unknown>>)[ROW_BATCHES] === "function";

export function rowCursor(rows: AsyncIterable<unknown> | Iterable<unknown>): RowCursor {
  if (isBatched(rows)) {
    const pages = rows[ROW_BATCHES]();
    let page: readonly unknown[] = [];
    let index = 0;
    const more = async (): Promise<IteratorResult<unknown>> => {
      for (;;) {
        const next = await pages.next();
        if (next.done) return { done: true, value: undefined };
        page = next.value;
        index = 0;
        if (page.length) return { done: false, value: page[index++] };
      }
    };
    return {
      next: () => (index < page.length ? { done: false, value: page[index++] } : more()),
      return: () => pages.return?.(),
    };
  }
  const source = rows as AsyncIterable<unknown> & Iterable<unknown>;
  const it: AsyncIterator<unknown> | Iterator<unknown> =
    typeof source[Symbol.asyncIterator] === "function" ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  return { next: () => it.next(), return: () => it.return?.() };
}
