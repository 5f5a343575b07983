import { describe, expect, it } from "vitest";
import { parseUsageState, resolveUsage, usageQuery } from "./usage";

const resolve = (q: Record<string, string>, today = "2026-11-29") => resolveUsage(usageQuery.parse(q), today);

describe("the usage query's range", () => {
  it("reads a past month whole, the month under way to today, and nothing as this month to date", () => {
    expect(resolve({ dimension: "group", month: "2026-10" })).toEqual({
      params: { dimension: "group", from: "2026-10-01", to: "2026-10-31", month: "2026-10" },
    });
    expect(resolve({ dimension: "owner", month: "2026-02" }, "2026-02-10")).toMatchObject({
      params: { from: "2026-02-01", to: "2026-02-10" },
    });
    expect(resolve({})).toMatchObject({ params: { dimension: "group", from: "2026-11-01", to: "2026-11-29" } });
    expect(resolve({ dimension: "agent", from: "2026-09-15", to: "2026-10-14" })).toMatchObject({
      params: { from: "2026-09-15", to: "2026-10-14", month: null },
    });
  });

  it("names each mistake with its code", () => {
    expect(resolve({ dimension: "team" })).toMatchObject({ problem: { code: "unknown_dimension" } });
    expect(resolve({ month: "2026-12" })).toMatchObject({ problem: { code: "future_range" } });
    expect(resolve({ from: "2026-11-01", to: "2026-12-01" })).toMatchObject({ problem: { code: "future_range" } });
    expect(resolve({ from: "2023-01-01", to: "2026-01-01" })).toMatchObject({ problem: { code: "range_too_long" } });
    expect(usageQuery.safeParse({ month: "2026-13" }).success).toBe(false);
    expect(usageQuery.safeParse({ from: "2026-11-01" }).success).toBe(false);
    expect(usageQuery.safeParse({ month: "2026-10", from: "2026-10-01", to: "2026-10-02" }).success).toBe(false);
  });

  it("opens a hand-edited page at this month by group rather than failing", () => {
    expect(parseUsageState({ dimension: "nope", month: "2099-01" }, "2026-11-29")).toEqual({
      dimension: "group",
      from: "2026-11-01",
      to: "2026-11-29",
      month: "2026-11",
    });
  });
});
