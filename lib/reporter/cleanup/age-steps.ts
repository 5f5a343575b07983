// The recipes' age steps (RECIPE_AGE_STEPS_DAYS) as the reporter counts units in them: the unit tally steps
// each unit, and the native scanner's time bins (native-sums.ts) give each bin the step of its mtimes.

import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";

const DAY = 86_400;
const STEPS = RECIPE_AGE_STEPS_DAYS.map((d) => d * DAY);

/** How many age steps a usage counts in: one per recipe age step, then one for the units older than all. */
export const AGE_STEP_COUNT = STEPS.length + 1;

/** The index of the age step a unit of this age (seconds) falls in; the last index holds the older ones. */
export function ageStep(ageSec: number): number {
  for (let i = 0; i < STEPS.length; i++) if (ageSec <= STEPS[i]) return i;
  return STEPS.length;
}
