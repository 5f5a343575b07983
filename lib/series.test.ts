import { describe, expect, it } from "vitest";
import { addDaysTo, cumulativeLevels, eachDay, fillCarryForward, logHistogram, median, resolveRange } from "./series";

describe("series helpers", () => {
  const now = new Date("2026-03-20T23:59:59Z");
  it("resolves presets ending today (UTC) and custom ranges", () => {
    expect(resolveRange({ range: "7d" }, now)).toEqual({ key: "7d", from: "2026-03-14", to: "2026-03-20", days: 7 });
    expect(resolveRange(undefined, now)).toMatchObject({ key: "30d", from: "2026-02-19", days: 30 });
    expect(resolveRange({ range: "custom", from: "2026-02-27", to: "2026-03-01" }, now)).toEqual({
      key: "custom",
      from: "2026-02-27",
      to: "2026-03-01",
      days: 3,
    });
  });
  it("walks days across month ends and leap days", () => {
    expect(eachDay("2028-02-27", "2028-03-01")).toEqual(["2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(addDaysTo("2026-01-01", -1)).toBe("2025-12-31");
  });
  it("carries values forward and marks carried days", () => {
    const days = eachDay("2026-03-01", "2026-03-05");
    expect(
      fillCarryForward(
        days,
        new Map([
          ["2026-03-02", 5],
          ["2026-03-04", 0],
        ]),
      ),
    ).toEqual([
      { day: "2026-03-01", value: null, carried: false },
      { day: "2026-03-02", value: 5, carried: false },
      { day: "2026-03-03", value: 5, carried: true },
      { day: "2026-03-04", value: 0, carried: false },
      { day: "2026-03-05", value: 0, carried: true },
    ]);
    expect(fillCarryForward(days.slice(0, 2), {}, 7).map((p) => [p.value, p.carried])).toEqual([
      [7, true],
      [7, true],
    ]);
  });
  it("sums deltas into levels", () => {
    expect(
      cumulativeLevels(
        ["a", "b", "c"],
        new Map([
          ["a", 2],
          ["c", -1],
        ]),
        10,
      ),
    ).toEqual([12, 12, 11]);
  });
  it("computes medians and log-scale histograms", () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const h = logHistogram([0, 1024 ** 2 - 1, 1024 ** 2, 4 * 1024 ** 2, 1e18], 1024 ** 2, 4, 4);
    expect(h).toEqual([
      { minBytes: 0, maxBytes: 1024 ** 2, count: 2 },
      { minBytes: 1024 ** 2, maxBytes: 4 * 1024 ** 2, count: 1 },
      { minBytes: 4 * 1024 ** 2, maxBytes: 16 * 1024 ** 2, count: 1 },
      { minBytes: 16 * 1024 ** 2, maxBytes: null, count: 1 },
    ]);
  });
});
