import { describe, expect, it } from "vitest";
import { rangeChange } from "./range-change";

const GiB = 1024 ** 3;

describe("rangeChange", () => {
  it("is the last point less the first, and its share of the first", () => {
    const series = [
      { day: "2026-10-28", bytes: 363 * GiB },
      { day: "2026-11-10", bytes: 300 * GiB },
      { day: "2026-11-27", bytes: 501 * GiB },
    ];
    expect(rangeChange(series)).toEqual({
      fromDay: "2026-10-28",
      toDay: "2026-11-27",
      fromBytes: 363 * GiB,
      toBytes: 501 * GiB,
      bytes: 138 * GiB,
      ratio: 138 / 363,
    });
  });

  it("has no share from nothing, and no change from fewer than two points", () => {
    expect(
      rangeChange([
        { day: "a", bytes: 0 },
        { day: "b", bytes: 5 },
      ])?.ratio,
    ).toBeNull();
    expect(rangeChange([{ day: "a", bytes: 5 }])).toBeNull();
  });
});
