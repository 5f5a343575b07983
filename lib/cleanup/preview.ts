// What a cleanup run would remove from one root, estimated from the root's latest report alone (its
// per-recipe usage by age step), so a preview needs no workspace. Pure TypeScript with type-only imports of
// the contract: the dashboard and the reporter's tests both use it.
//
// The reporter's planner (lib/reporter/cleanup/plan.ts) decides per unit; this reads buckets. Within a step
// the units are taken as spread evenly over its days and of even size, so a threshold that falls on a step
// is exact and one between steps is off by at most that step's share. The last step is open: a threshold
// beyond the largest step counts all of it.

import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { RecipeParams } from "@/lib/cleanup/protocol";
import type { RecipeUsage } from "@/lib/report/schema";

export type Preview = { units: number; bytes: number };

export type PreviewClock = {
  /** When the report was collected (its byAge is relative to that). */
  collectedAt: string | Date;
  /** The moment the run would start: the units are older by the difference. */
  now: number | Date;
};

const DAY_MS = 86_400_000;

/**
 * Units and bytes a run with `params` would act on: older than olderThanDays, not among the keepNewest
 * newest, and (capBytes) oldest first until the recipe's units in the root fit under the cap. Protected units
 * are never counted (they are not in byAge).
 */
export function previewFromUsage(usage: RecipeUsage, params: RecipeParams, clock?: PreviewClock): Preview {
  const steps = RECIPE_AGE_STEPS_DAYS;
  const shiftDays = clock ? Math.max(0, (+new Date(clock.now) - +new Date(clock.collectedAt)) / DAY_MS) : 0;
  const n = steps.length + 1;
  const units: number[] = [];
  const bytes: number[] = [];
  for (let i = 0; i < n; i++) {
    units.push(usage.byAge[i]?.[0] ?? 0);
    bytes.push(usage.byAge[i]?.[1] ?? 0);
  }

  // the share of each step that is selected, newest step first
  const share: number[] = [];
  let newer = 0;
  for (let i = 0; i < n; i++) {
    let s = 1;
    if (params.olderThanDays !== undefined) {
      const limit = params.olderThanDays - shiftDays;
      const lo = i === 0 ? 0 : steps[i - 1];
      const hi = i < steps.length ? steps[i] : Infinity;
      s = limit <= lo || hi === Infinity ? 1 : limit >= hi ? 0 : (hi - limit) / (hi - lo);
    }
    if (params.keepNewest !== undefined && units[i] > 0) {
      const beyond = Math.min(units[i], Math.max(0, newer + units[i] - params.keepNewest));
      s = Math.min(s, beyond / units[i]);
    }
    newer += units[i];
    share.push(units[i] > 0 ? s : 0);
  }

  let outUnits = 0;
  let outBytes = 0;
  if (params.capBytes === undefined) {
    for (let i = 0; i < n; i++) {
      outUnits += units[i] * share[i];
      outBytes += bytes[i] * share[i];
    }
  } else {
    // oldest first, until what is left fits under the cap
    let excess = usage.bytes + usage.protectedBytes - params.capBytes;
    for (let i = n - 1; i >= 0 && excess > 0; i--) {
      const b = bytes[i] * share[i];
      if (b <= 0) continue;
      const t = Math.min(1, excess / b);
      outUnits += units[i] * share[i] * t;
      outBytes += b * t;
      excess -= b * t;
    }
  }
  return { units: Math.round(outUnits), bytes: Math.round(outBytes) };
}
