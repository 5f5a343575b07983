import "server-only";
import type { Db } from "./types";

// Work of other layers tied to one database object that must stop before its connections close (the kept
// aggregates' refresher): a timer firing after close() met "Cannot use a pool after calling end". Keyed by the
// database object, as the ingest queue and the refresher are.
const hooks = new WeakMap<object, Set<() => Promise<void>>>();

/** Runs `fn` when `db` is closed, before its connections go. */
export function beforeClose(db: Db, fn: () => Promise<void>): void {
  let set = hooks.get(db);
  if (!set) hooks.set(db, (set = new Set()));
  set.add(fn);
}

/** Called by the openers' close(). */
export async function runBeforeClose(db: Db): Promise<void> {
  const set = hooks.get(db);
  hooks.delete(db);
  await Promise.all([...(set ?? [])].map((fn) => fn()));
}
