// Which units a job acts on, decided on plain data (pure, unit-tested): the recipe's parameters combined,
// then the owner's protect list, the minimum age and the job's caps. lib/cleanup/preview.ts estimates the same
// from a report's age steps.

import { MIN_AGE_HOURS_FLOOR } from "@/lib/catalog/recipes";
import type { RecipeParams } from "@/lib/cleanup/protocol";

export type PlanUnit = {
  path: string;
  bytes: number;
  /** Newest mtime of any entry of the unit (and ctime, when the run counts status changes), in seconds. */
  newest: number;
  protected: boolean;
};

export type PlanOptions = {
  params: RecipeParams;
  nowSec: number;
  /** Units with anything modified within this many hours are skipped (never below the floor). */
  minAgeHours: number;
};

export type SkipReason = "recent" | "protected" | "kept" | "limit";
export type Plan<U> = { selected: U[]; skipped: { unit: U; reason: SkipReason }[] };

const DAY = 86_400;

/**
 * A unit is selected when it is older than olderThanDays (if given), not among the keepNewest newest (if
 * given; protected units count among them, as they are there), and, with capBytes, oldest first while the
 * recipe's units in the root (protected ones included) add up to more than the cap. Protected and recent
 * units that would have been selected are skipped with their reason, and so is whatever passes the job's
 * unit or byte cap ("limit", capJob). Units neither old enough nor needed for the cap are not listed. Oldest first.
 */
export function plan<U extends PlanUnit>(units: readonly U[], o: PlanOptions): Plan<U> {
  const { params, nowSec } = o;
  const minAge = Math.max(MIN_AGE_HOURS_FLOOR, o.minAgeHours) * 3600;
  const newestFirst = [...units].sort(
    (a, b) => b.newest - a.newest || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const skipped: Plan<U>["skipped"] = [];
  const candidates: U[] = [];
  newestFirst.forEach((u, rank) => {
    if (params.olderThanDays !== undefined && nowSec - u.newest <= params.olderThanDays * DAY) return;
    if (params.keepNewest !== undefined && rank < params.keepNewest) skipped.push({ unit: u, reason: "kept" });
    else candidates.push(u);
  });
  candidates.reverse(); // oldest first

  let total = params.capBytes === undefined ? 0 : units.reduce((s, u) => s + u.bytes, 0);
  const chosen: U[] = [];
  for (const u of candidates) {
    if (params.capBytes !== undefined && total <= params.capBytes) break;
    if (u.protected) skipped.push({ unit: u, reason: "protected" });
    else if (nowSec - u.newest < minAge) skipped.push({ unit: u, reason: "recent" });
    else {
      chosen.push(u);
      total -= u.bytes;
    }
  }

  return { selected: chosen, skipped };
}

/**
 * The job's caps over what the plans of all its roots selected, in order: once the unit or byte cap is
 * reached, everything after it is skipped ("limit") and waits for a later job.
 */
export function capJob<U extends PlanUnit>(units: readonly U[], maxUnits: number, maxBytes: number): Plan<U> {
  const selected: U[] = [];
  const skipped: Plan<U>["skipped"] = [];
  let bytes = 0;
  let full = false;
  for (const u of units) {
    full ||= selected.length >= maxUnits || bytes + u.bytes > maxBytes;
    if (full) skipped.push({ unit: u, reason: "limit" });
    else {
      selected.push(u);
      bytes += u.bytes;
    }
  }
  return { selected, skipped };
}
