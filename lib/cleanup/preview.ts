// What a cleanup would free in one root, read from the report's per-recipe usage by age step: no workspace is
// touched. Pure TypeScript with type-only imports, so the reporter can check its own counts against it.
//
// How the parameters combine (the reporter applies the same rule): a unit is acted on only when every given
// parameter allows it. olderThanDays and keepNewest narrow which units may go; capBytes then takes from
// those, oldest first, only as many as bring the root under the cap. So a run never removes more than any one
// of its parameters alone would. minAgeHours (the run's safety floor) narrows like olderThanDays.
//
// The report's byAge, units and bytes count the units a run may act on; protected units are counted apart
// (protectedUnits, protectedBytes) and never previewed as freed.
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { RecipeParams } from "@/lib/cleanup/protocol";
import type { RecipeUsage } from "@/lib/report/schema";

export type PreviewParams = RecipeParams & { minAgeHours?: number };

export type RootPreview = {
  units: number;
  bytes: number;
  /** True when a parameter fell inside an age step and the share of that step was interpolated. */
  estimate: boolean;
  protectedUnits: number;
  protectedBytes: number;
};

/** The open last step is taken to span as long again as the last bound, for interpolation only. */
const OPEN_STEP_DAYS = RECIPE_AGE_STEPS_DAYS[RECIPE_AGE_STEPS_DAYS.length - 1] * 2;

/** Age span (days) of byAge entry i: (lower, upper]. */
function stepSpan(i: number): [number, number] {
  const lower = i === 0 ? 0 : RECIPE_AGE_STEPS_DAYS[i - 1];
  const upper = i < RECIPE_AGE_STEPS_DAYS.length ? RECIPE_AGE_STEPS_DAYS[i] : OPEN_STEP_DAYS;
  return [lower, upper];
}

type Bucket = { units: number; bytes: number };

/** Returns what a run with `params` would act on in a root holding `usage` (and `rootBytes` in all). */
export function previewFromUsage(usage: RecipeUsage, params: PreviewParams, rootBytes: number): RootPreview {
  let estimate = false;
  const buckets: Bucket[] = usage.byAge.map(([units, bytes]) => ({ units, bytes }));

  // 1. Age floor: units younger than olderThanDays (or the run's minimum age) stay.
  const minDays = Math.max(params.olderThanDays ?? 0, (params.minAgeHours ?? 0) / 24);
  if (minDays > 0) {
    buckets.forEach((b, i) => {
      const [lower, upper] = stepSpan(i);
      if (upper <= minDays) {
        b.units = 0;
        b.bytes = 0;
      } else if (lower < minDays && b.units > 0) {
        const share = (upper - minDays) / (upper - lower);
        b.units *= share;
        b.bytes *= share;
        estimate = true;
      }
    });
  }

  // 2. keepNewest: skip that many units counting from the youngest step (whole units: the reporter keeps them).
  const keep = params.keepNewest ?? 0;
  if (keep > 0) {
    const all = usage.byAge.map(([units]) => units);
    let seen = 0;
    buckets.forEach((b, i) => {
      const inStep = all[i];
      const keptHere = Math.min(inStep, Math.max(0, keep - seen));
      seen += inStep;
      if (keptHere === 0) return;
      // The kept units are the step's youngest; those the age floor removed were the youngest too.
      const removedByAge = inStep - b.units;
      const alsoKept = Math.max(0, keptHere - removedByAge);
      if (alsoKept > 0 && b.units > 0) {
        if (alsoKept < b.units) estimate = true;
        const share = Math.max(0, (b.units - alsoKept) / b.units);
        b.units *= share;
        b.bytes *= share;
      }
    });
  }

  // 3. capBytes: oldest first, only as much as brings the root under the cap.
  if (params.capBytes !== undefined) {
    let needed = Math.max(0, rootBytes - params.capBytes);
    for (let i = buckets.length - 1; i >= 0; i--) {
      const b = buckets[i];
      if (needed <= 0) {
        b.units = 0;
        b.bytes = 0;
      } else if (b.bytes > needed && b.units > 0) {
        // Whole units of the step's average size, enough to cover what is still needed.
        const unitBytes = b.bytes / b.units;
        const units = Math.min(b.units, Math.ceil(needed / unitBytes));
        b.bytes = units * unitBytes;
        b.units = units;
        needed = 0;
        estimate = true;
      } else {
        needed -= b.bytes;
      }
    }
  }

  const units = buckets.reduce((s, b) => s + b.units, 0);
  const bytes = buckets.reduce((s, b) => s + b.bytes, 0);
  return {
    units: Math.round(units),
    bytes: Math.round(bytes),
    estimate,
    protectedUnits: usage.protectedUnits,
    protectedBytes: usage.protectedBytes,
  };
}
