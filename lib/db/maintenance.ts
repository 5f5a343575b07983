import "server-only";
import type { Db } from "./types";

// Work a database wants done after every so many writes (the embedded one's statistics: it has no
// autovacuum). Keyed by the database object, so a transaction or a server database has none.
const afterWrites = new WeakMap<object, () => Promise<void>>();

export function everyWrites(db: Db, every: number, task: () => Promise<void>): void {
  let writes = 0;
  afterWrites.set(db, async () => {
    writes += 1;
    if (writes % every === 0) await task();
  });
}

/** Called by writers (ingest) after each write they commit. */
export async function noteWrite(db: Db): Promise<void> {
  await afterWrites.get(db)?.();
}

// How many write transactions a database serves usefully at once: the embedded one runs one statement at a
// time, so more than one batch in flight would only make each batch smaller.
const writers = new WeakMap<object, number>();

export function setWriters(db: Db, n: number): void {
  writers.set(db, n);
}

export function writersOf(db: Db): number | undefined {
  return writers.get(db);
}
