import "server-only";
import type { Db } from "@/lib/db/types";
import {
  forget,
  giveBack,
  notePlace,
  placeKnown,
  pruneSignIn,
  takeAttempt,
  waitLeft,
  type Throttle,
} from "@/lib/db/queries/sign-in-failures";

// Password guesses, slowed per account and per account and address, without locking the owner out. Better Auth
// limits requests per address and path only. Every attempt is counted before its password is checked (one
// statement per counter), so attempts sent at once cannot all pass a count read before any was written.
// - From one address, an account gets `pair.free` attempts, then waits that double (30 s up to 15 minutes).
// - From addresses it never signed in from, the account as a whole gets `account.free`, then the same waits:
//   a guesser spreading over many addresses is slowed as much as one.
// - From an address the account signed in from with its password before (within `knownPlaceDays`), only the
//   first rule applies: others' guesses elsewhere never keep the owner out where they signed in before.
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
export const SIGN_IN_THROTTLE = {
  pair: { free: 5, baseMs: MINUTE / 2, maxMs: 15 * MINUTE, resetMs: DAY },
  account: { free: 10, baseMs: MINUTE / 2, maxMs: 15 * MINUTE, resetMs: DAY },
  knownPlaceDays: 90,
} satisfies Record<string, Throttle | number>;

const pairKey = (email: string, address: string | null) => `pair|${email}|${address ?? "unknown"}`;
const accountKey = (email: string) => `account|${email}`;
const knownSince = (now: Date) => new Date(now.getTime() - SIGN_IN_THROTTLE.knownPlaceDays * DAY);
const known = (db: Db, email: string, address: string | null, now: Date) =>
  address ? placeKnown(db, email, address, knownSince(now)) : Promise.resolve(false);

/** Counts a password attempt before it is checked: null when it may go on, else the milliseconds to wait. */
export async function takeSignInAttempt(db: Db, email: string, address: string | null): Promise<number | null> {
  const now = new Date();
  const { pair, account } = SIGN_IN_THROTTLE;
  const pk = pairKey(email, address);
  if ((await takeAttempt(db, pk, pair, now)) === null) return waitLeft(db, pk, pair, now);
  if (await known(db, email, address, now)) return null;
  if ((await takeAttempt(db, accountKey(email), account, now)) === null)
    return waitLeft(db, accountKey(email), account, now);
  return null;
}

/** A correct password: this address is known from now on, and the attempt is not held against the account. */
export async function signInSucceeded(db: Db, email: string, address: string | null): Promise<void> {
  const now = new Date();
  if (!(await known(db, email, address, now))) await giveBack(db, accountKey(email));
  await forget(db, pairKey(email, address));
  if (address) await notePlace(db, email, address, now);
  await pruneSignIn(db, new Date(now.getTime() - DAY), knownSince(now));
}
