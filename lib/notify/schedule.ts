// When a message goes, and goes again: pure, with the time passed in, so the tests hold the clock.

export const RETRY_FIRST_MS = 60_000;
export const RETRY_LONGEST_MS = 3_600_000;
/** A message that failed for this long since it was queued is given up, with its last error. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;

export type AfterFailure =
  { status: "pending"; nextAttemptAt: Date; error: string } | { status: "failed"; error: string };

/** After the `attempts`-th failed send: again after 1, 2, 4 … minutes, at most an hour apart, for 24 hours. */
export function afterFailure(createdAt: Date, attempts: number, now: Date, error: string): AfterFailure {
  const wait = Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), RETRY_LONGEST_MS);
  const next = new Date(now.getTime() + wait);
  if (next.getTime() - createdAt.getTime() > RETRY_WINDOW_MS) return { status: "failed", error };
  return { status: "pending", nextAttemptAt: next, error };
}

/** The next time the clock reads `hour`:00 UTC, `now` excluded: a digest never goes out at once. */
export function nextDigestAt(now: Date, hour: number): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}
