import { describe, expect, it } from "vitest";
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { RecipeUsage } from "@/lib/report-format/schema";
import { previewFromUsage } from "./preview";

// Steps: [1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365] and an open one after 365.
const STEP = (days: number) => RECIPE_AGE_STEPS_DAYS.indexOf(days as never);
const MiB = 1024 ** 2;

/** Usage with `entries` as { upper step bound (or "open"): [units, bytes] }. */
function usage(entries: Record<string, [number, number]>, prot: [number, number] = [0, 0]): RecipeUsage {
  const byAge: [number, number][] = Array.from({ length: RECIPE_AGE_STEPS_DAYS.length + 1 }, () => [0, 0]);
  for (const [k, v] of Object.entries(entries))
    byAge[k === "open" ? RECIPE_AGE_STEPS_DAYS.length : STEP(Number(k))] = v;
  const units = byAge.reduce((s, [u]) => s + u, 0);
  const bytes = byAge.reduce((s, [, b]) => s + b, 0);
  return { units, bytes, protectedUnits: prot[0], protectedBytes: prot[1], byAge };
}

// 10 units of 1 MiB in (0,1], 10 in (21,30], 10 in (30,45], 5 older than 365 days.
const u = usage({ 1: [10, 10 * MiB], 30: [10, 10 * MiB], 45: [10, 10 * MiB], open: [5, 50 * MiB] }, [2, 3 * MiB]);

describe("previewFromUsage", () => {
  it("sums the steps older than N exactly at a step bound", () => {
    expect(previewFromUsage(u, { olderThanDays: 30 })).toEqual({
      units: 15,
      bytes: 60 * MiB,
      estimate: false,
      protectedUnits: 2,
      protectedBytes: 3 * MiB,
    });
    expect(previewFromUsage(u, { olderThanDays: 0 })).toMatchObject({ units: 35, bytes: 80 * MiB, estimate: false });
    // The open step counts as (365, 730] for interpolation: 600 days leaves 130/365 of it.
    expect(previewFromUsage(u, { olderThanDays: 600 })).toMatchObject({ units: 2, estimate: true });
  });

  it("interpolates inside the step that straddles N, and says it is an estimate", () => {
    // (21,30]: 25 days leaves 5 of its 9 days: 5/9 of 10 units.
    const p = previewFromUsage(u, { olderThanDays: 25 });
    expect(p.estimate).toBe(true);
    expect(p.bytes).toBe(Math.round(60 * MiB + (10 * MiB * 5) / 9));
    expect(p.units).toBe(Math.round(15 + 50 / 9));
  });

  it("applies the run's minimum age like an age floor", () => {
    expect(previewFromUsage(u, { keepNewest: 0, minAgeHours: 24 })).toMatchObject({ units: 25, bytes: 70 * MiB });
  });

  it("keeps the N newest units counting from the youngest step", () => {
    expect(previewFromUsage(u, { keepNewest: 10 })).toMatchObject({ units: 25, bytes: 70 * MiB, estimate: false });
    const p = previewFromUsage(u, { keepNewest: 14 });
    expect(p).toMatchObject({ units: 21, bytes: 66 * MiB, estimate: true });
    expect(previewFromUsage(u, { keepNewest: 1000 })).toMatchObject({ units: 0, bytes: 0 });
  });

  it("does not keep twice what the age floor already kept", () => {
    // Older than 30 leaves (30,45] and the open step; the 20 newest are all younger than 30 days.
    expect(previewFromUsage(u, { olderThanDays: 30, keepNewest: 20 })).toMatchObject({ units: 15, bytes: 60 * MiB });
    expect(previewFromUsage(u, { olderThanDays: 30, keepNewest: 25 })).toMatchObject({ units: 10, bytes: 55 * MiB });
  });

  it("caps the recipe's units in the root (protected ones count, being there) oldest first, only as much as needed", () => {
    // 80 MiB of units and 3 MiB protected; cap 43 MiB: 40 MiB to go, 4 of the 5 units of 10 MiB in the open step.
    expect(previewFromUsage(u, { capBytes: 43 * MiB })).toMatchObject({ units: 4, bytes: 40 * MiB, estimate: true });
    // Cap 23 MiB: 60 MiB: the open step and all of (30,45].
    expect(previewFromUsage(u, { capBytes: 23 * MiB })).toMatchObject({ units: 15, bytes: 60 * MiB, estimate: false });
    expect(previewFromUsage(u, { capBytes: 500 * MiB })).toMatchObject({ units: 0, bytes: 0 });
    // A cap below what the recipe holds takes everything the recipe may take.
    expect(previewFromUsage(u, { capBytes: 0 })).toMatchObject({ units: 35, bytes: 80 * MiB });
  });

  it("combines parameters so that each narrows", () => {
    // Cap wants 73 MiB but only units older than 30 days may go.
    expect(previewFromUsage(u, { capBytes: 10 * MiB, olderThanDays: 30 })).toMatchObject({
      units: 15,
      bytes: 60 * MiB,
    });
  });

  it("handles empty usage and short byAge arrays", () => {
    expect(
      previewFromUsage({ units: 0, bytes: 0, protectedUnits: 0, protectedBytes: 0, byAge: [] }, { olderThanDays: 7 }),
    ).toEqual({ units: 0, bytes: 0, estimate: false, protectedUnits: 0, protectedBytes: 0 });
    expect(
      previewFromUsage(
        {
          units: 2,
          bytes: 10,
          protectedUnits: 0,
          protectedBytes: 0,
          byAge: [
            [1, 4],
            [1, 6],
          ],
        },
        { olderThanDays: 1 },
      ),
    ).toMatchObject({ units: 1, bytes: 6 });
  });
});

// The reporter's fixture: 10 units of 100 bytes in (7, 10], 10 in (21, 30], 5 of 1000 beyond 365, 1 protected.
const byAge: [number, number][] = Array.from({ length: 17 }, () => [0, 0]);
byAge[5] = [10, 1000];
byAge[8] = [10, 1000];
byAge[16] = [5, 5000];
const planned: RecipeUsage = { units: 25, bytes: 7000, protectedUnits: 1, protectedBytes: 500, byAge };

describe("previewFromUsage against the planner's rules", () => {
  it("is exact at a step, interpolates between steps", () => {
    expect(previewFromUsage(planned, { olderThanDays: 7 })).toMatchObject({ units: 25, bytes: 7000 });
    expect(previewFromUsage(planned, { olderThanDays: 10 })).toMatchObject({ units: 15, bytes: 6000 });
    expect(previewFromUsage(planned, { olderThanDays: 8.5 })).toMatchObject({ units: 20, bytes: 6500 });
    // Beyond the last bound the open step is interpolated as (365, 730]: an estimate.
    expect(previewFromUsage(planned, { olderThanDays: 400 })).toMatchObject({ units: 5, bytes: 4521, estimate: true });
  });
  it("keeps the newest N", () => {
    expect(previewFromUsage(planned, { keepNewest: 15 })).toMatchObject({ units: 10, bytes: 5500 });
    expect(previewFromUsage(planned, { keepNewest: 15, olderThanDays: 30 })).toMatchObject({ units: 5, bytes: 5000 });
  });
  it("caps oldest first, protected bytes counting in the total", () => {
    expect(previewFromUsage(planned, { capBytes: 7500 })).toMatchObject({ units: 0, bytes: 0 });
    expect(previewFromUsage(planned, { capBytes: 2500 })).toMatchObject({ units: 5, bytes: 5000 });
    expect(previewFromUsage(planned, { capBytes: 2000 })).toMatchObject({ units: 10, bytes: 5500 });
  });
  it("ages the report to the run's time", () => {
    const collectedAt = "2026-01-01T00:00:00Z";
    expect(
      previewFromUsage(planned, { olderThanDays: 13 }, { collectedAt, now: Date.parse(collectedAt) + 3 * 86_400_000 }),
    ).toMatchObject({ units: 15, bytes: 6000 });
  });
});
