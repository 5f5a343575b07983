// What a cleanup run would act on in one root, estimated from the root's latest report alone (its per-recipe
// usage by age step), so a preview needs no workspace. Pure TypeScript with type-only imports of the
// contract: the dashboard's previews and the reporter's tests (which hold it against real dry runs) use it.
//
// It follows the reporter's planner (lib/reporter/cleanup/plan.ts), which decides per unit: a unit goes only
// when every given parameter allows it. olderThanDays (and the run's minAgeHours floor) and keepNewest narrow
// which units may go; capBytes then takes from those, oldest first, only as much as brings the recipe's units
// in the root (protected ones included, as they are there) under the cap. Within a step the units are taken as
// spread evenly over its days and of even size: a threshold on a step bound is exact, one inside a step is an
// estimate (and says so). Protected units are never counted as freed (they are not in byAge).
import { millisecondsInDay } from "date-fns/constants";
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { RecipeParams } from "@/lib/cleanup/protocol";
import type { RecipeUsage } from "@/lib/report-format/schema";

export type PreviewParams = RecipeParams & { minAgeHours?: number };

export type PreviewClock = {
  /** When the report was collected (its byAge is relative to that); a number is epoch milliseconds. */
  collectedAt: number | string | Date;
  /** The moment the run would start: the units are older by the difference. */
  now: number | Date;
};

export type RootPreview = {
  units: number;
  bytes: number;
  /** True when a parameter fell inside an age step and that step's share was interpolated. */
  estimate: boolean;
  protectedUnits: number;
  protectedBytes: number;
};

const STEPS = RECIPE_AGE_STEPS_DAYS;
/** The open last step is taken to span as long again as the last bound, for interpolation only. */
const OPEN_STEP_DAYS = STEPS[STEPS.length - 1] * 2;

export function previewFromUsage(usage: RecipeUsage, params: PreviewParams, clock?: PreviewClock): RootPreview {
  const n = STEPS.length + 1;
  const units = Array.from({ length: n }, (_, i) => usage.byAge[i]?.[0] ?? 0);
  const bytes = Array.from({ length: n }, (_, i) => usage.byAge[i]?.[1] ?? 0);
  const shiftDays = clock ? Math.max(0, (+new Date(clock.now) - +new Date(clock.collectedAt)) / millisecondsInDay) : 0;
  const floorDays = Math.max(params.olderThanDays ?? 0, (params.minAgeHours ?? 0) / 24) - shiftDays;
  let estimate = false;

  // The share of each step that may go, newest step first.
  const share: number[] = [];
  let newer = 0;
  for (let i = 0; i < n; i++) {
    const lo = i === 0 ? 0 : STEPS[i - 1];
    const hi = i < STEPS.length ? STEPS[i] : OPEN_STEP_DAYS;
    let s = floorDays <= lo ? 1 : floorDays >= hi ? 0 : (hi - floorDays) / (hi - lo);
    if (params.keepNewest !== undefined && units[i] > 0) {
      // The kept units are the youngest, like the ones the age floor keeps: the narrower of the two holds.
      const beyond = Math.min(units[i], Math.max(0, newer + units[i] - params.keepNewest));
      s = Math.min(s, beyond / units[i]);
    }
    newer += units[i];
    if (units[i] > 0 && s > 0 && s < 1) estimate = true;
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
    // Oldest first, until what is left fits under the cap.
    let excess = usage.bytes + usage.protectedBytes - params.capBytes;
    for (let i = n - 1; i >= 0 && excess > 0; i--) {
      const b = bytes[i] * share[i];
      if (b <= 0) continue;
      const t = Math.min(1, excess / b);
      if (t < 1) estimate = true;
      outUnits += units[i] * share[i] * t;
      outBytes += b * t;
      excess -= b * t;
    }
  }
  return {
    units: Math.round(outUnits),
    bytes: Math.round(outBytes),
    estimate,
    protectedUnits: usage.protectedUnits,
    protectedBytes: usage.protectedBytes,
  };
}
