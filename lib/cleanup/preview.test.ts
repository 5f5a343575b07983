import { describe, expect, it } from "vitest";
import type { RecipeUsage } from "@/lib/report/schema";
import { previewFromUsage } from "./preview";

// steps 1, 2, 3, 5, 7, 10, 14, 21, 30, ...: 10 units of 100 bytes in (7, 10], 10 in (21, 30], 5 of 1000 beyond 365
const byAge: [number, number][] = Array.from({ length: 17 }, () => [0, 0]);
byAge[5] = [10, 1000];
byAge[8] = [10, 1000];
byAge[16] = [5, 5000];
const usage: RecipeUsage = { units: 25, bytes: 7000, protectedUnits: 1, protectedBytes: 500, byAge };

describe("previewFromUsage", () => {
  it("is exact at a step, interpolates between steps", () => {
    expect(previewFromUsage(usage, { olderThanDays: 7 })).toEqual({ units: 25, bytes: 7000 });
    expect(previewFromUsage(usage, { olderThanDays: 10 })).toEqual({ units: 15, bytes: 6000 });
    expect(previewFromUsage(usage, { olderThanDays: 8.5 })).toEqual({ units: 20, bytes: 6500 });
    expect(previewFromUsage(usage, { olderThanDays: 400 })).toEqual({ units: 5, bytes: 5000 });
  });
  it("keeps the newest N", () => {
    expect(previewFromUsage(usage, { keepNewest: 15 })).toEqual({ units: 10, bytes: 5500 });
    expect(previewFromUsage(usage, { keepNewest: 15, olderThanDays: 30 })).toEqual({ units: 5, bytes: 5000 });
  });
  it("caps oldest first, protected bytes counting in the total", () => {
    expect(previewFromUsage(usage, { capBytes: 7500 })).toEqual({ units: 0, bytes: 0 });
    expect(previewFromUsage(usage, { capBytes: 2500 })).toEqual({ units: 5, bytes: 5000 });
    expect(previewFromUsage(usage, { capBytes: 2000 })).toEqual({ units: 10, bytes: 5500 });
  });
  it("ages the report to the run's time", () => {
    const collectedAt = "2026-01-01T00:00:00Z";
    expect(previewFromUsage(usage, { olderThanDays: 13 }, { collectedAt, now: Date.parse(collectedAt) + 3 * 86_400_000 })).toEqual({ units: 15, bytes: 6000 });
  });
});
