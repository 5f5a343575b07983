/**
 * Merges sources that are each sorted by `compare` into one sorted sequence, reading each only as far as the
 * merge needs (at most one row ahead per source). Ending early ends every source.
 */
export async function* mergeSorted<T>(
  sources: readonly AsyncIterable<T>[],
  compare: (a: T, b: T) => number,
): AsyncGenerator<T> {
  const its = sources.map((s) => s[Symbol.asyncIterator]());
  try {
    const heads = await Promise.all(its.map((it) => it.next()));
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        if (heads[i].done) continue;
        if (best < 0 || compare(heads[i].value, heads[best].value) < 0) best = i;
      }
      if (best < 0) return;
      yield heads[best].value;
      heads[best] = await its[best].next();
    }
  } finally {
    await Promise.all(its.map((it) => it.return?.()));
  }
}
