import { describe, expect, it } from "vitest";
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { RecipeUsage } from "@/lib/report/schema";
import { previewFromUsage } from "./preview";

// Steps: [1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365] and an open one after 365.
const STEP = (days: number) => RECIPE_AGE_STEPS_DAYS.indexOf(days as never);
const MiB = 1024 ** 2;

/** Usage with `entries` as { upper step bound (or "open"): [units, bytes] }. */
function usage(entries: Record<string, [number, number]>, prot: [number, number] = [0, 0]): RecipeUsage {
  const byAge: [number, number][] = Array.from({ length: RECIPE_AGE_STEPS_DAYS.length + 1 }, () => [0, 0]);
  for (const [k, v] of Object.entries(entries)) byAge[k === "open" ? RECIPE_AGE_STEPS_DAYS.length : STEP(Number(k))] = v;
  const units = byAge.reduce((s, [u]) => s + u, 0);
  const bytes = byAge.reduce((s, [, b]) => s + b, 0);
  return { units, bytes, protectedUnits: prot[0], protectedBytes: prot[1], byAge };
}

// 10 units of 1 MiB in (0,1], 10 in (21,30], 10 in (30,45], 5 older than 365 days.
const u = usage({ 1: [10, 10 * MiB], 30: [10, 10 * MiB], 45: [10, 10 * MiB], open: [5, 50 * MiB] }, [2, 3 * MiB]);
const ROOT = 200 * MiB;

describe("previewFromUsage", () => {
  it("sums the steps older than N exactly at a step bound", () => {
    expect(previewFromUsage(u, { olderThanDays: 30 }, ROOT)).toEqual({
      units: 15, bytes: 60 * MiB, estimate: false, protectedUnits: 2, protectedBytes: 3 * MiB,
    });
    expect(previewFromUsage(u, { olderThanDays: 0 }, ROOT)).toMatchObject({ units: 35, bytes: 80 * MiB, estimate: false });
    // The open step counts as (365, 730] for interpolation: 600 days leaves 130/365 of it.
    expect(previewFromUsage(u, { olderThanDays: 600 }, ROOT)).toMatchObject({ units: 2, estimate: true });
  });

  it("interpolates inside the step that straddles N, and says it is an estimate", () => {
    // (21,30]: 25 days leaves 5 of its 9 days: 5/9 of 10 units.
    const p = previewFromUsage(u, { olderThanDays: 25 }, ROOT);
    expect(p.estimate).toBe(true);
    expect(p.bytes).toBe(Math.round(60 * MiB + (10 * MiB * 5) / 9));
    expect(p.units).toBe(Math.round(15 + 50 / 9));
  });

  it("applies the run's minimum age like an age floor", () => {
    expect(previewFromUsage(u, { keepNewest: 0, minAgeHours: 24 }, ROOT)).toMatchObject({ units: 25, bytes: 70 * MiB });
  });

  it("keeps the N newest units counting from the youngest step", () => {
    expect(previewFromUsage(u, { keepNewest: 10 }, ROOT)).toMatchObject({ units: 25, bytes: 70 * MiB, estimate: false });
    const p = previewFromUsage(u, { keepNewest: 14 }, ROOT);
    expect(p).toMatchObject({ units: 21, bytes: 66 * MiB, estimate: true });
    expect(previewFromUsage(u, { keepNewest: 1000 }, ROOT)).toMatchObject({ units: 0, bytes: 0 });
  });

  it("does not keep twice what the age floor already kept", () => {
    // Older than 30 leaves (30,45] and the open step; the 20 newest are all younger than 30 days.
    expect(previewFromUsage(u, { olderThanDays: 30, keepNewest: 20 }, ROOT)).toMatchObject({ units: 15, bytes: 60 * MiB });
    expect(previewFromUsage(u, { olderThanDays: 30, keepNewest: 25 }, ROOT)).toMatchObject({ units: 10, bytes: 55 * MiB });
  });

  it("caps the root oldest first, only as much as needed", () => {
    // Root 200 MiB, cap 160 MiB: 40 MiB needed; the open step (50 MiB in 5 units of 10 MiB) gives 4 units.
    expect(previewFromUsage(u, { capBytes: 160 * MiB }, ROOT)).toMatchObject({ units: 4, bytes: 40 * MiB, estimate: true });
    // Cap 140 MiB: 60 MiB: the open step and all of (30,45].
    expect(previewFromUsage(u, { capBytes: 140 * MiB }, ROOT)).toMatchObject({ units: 15, bytes: 60 * MiB, estimate: false });
    expect(previewFromUsage(u, { capBytes: 500 * MiB }, ROOT)).toMatchObject({ units: 0, bytes: 0 });
    // A cap below what the recipe holds takes everything the recipe may take.
    expect(previewFromUsage(u, { capBytes: 0 }, ROOT)).toMatchObject({ units: 35, bytes: 80 * MiB });
  });

  it("combines parameters so that each narrows", () => {
    // Cap wants 190 MiB but only units older than 30 days may go.
    expect(previewFromUsage(u, { capBytes: 10 * MiB, olderThanDays: 30 }, ROOT)).toMatchObject({ units: 15, bytes: 60 * MiB });
  });

  it("handles empty usage and short byAge arrays", () => {
    expect(previewFromUsage({ units: 0, bytes: 0, protectedUnits: 0, protectedBytes: 0, byAge: [] }, { olderThanDays: 7 }, 0))
      .toEqual({ units: 0, bytes: 0, estimate: false, protectedUnits: 0, protectedBytes: 0 });
    expect(previewFromUsage({ units: 2, bytes: 10, protectedUnits: 0, protectedBytes: 0, byAge: [[1, 4], [1, 6]] }, { olderThanDays: 1 }, 10))
      .toMatchObject({ units: 1, bytes: 6 });
  });
});
