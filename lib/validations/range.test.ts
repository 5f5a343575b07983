import { subDays } from "date-fns";
import { describe, expect, it } from "vitest";
import { parseRange, rangeEntries, rangeQuery } from "./range";

describe("rangeQuery (the API)", () => {
  it("rejects a custom range without a start, ending before it, or longer than two years (an open one ends today)", () => {
    expect(rangeQuery.safeParse({}).data).toEqual({ range: "30d" });
    expect(rangeQuery.safeParse({ range: "custom" }).success).toBe(false);
    expect(rangeQuery.safeParse({ range: "custom", from: "2026-02-01", to: "2026-01-01" }).success).toBe(false);
    expect(rangeQuery.safeParse({ range: "custom", from: "2020-01-01", to: "2026-01-01" }).success).toBe(false);
    expect(rangeQuery.safeParse({ range: "1y" }).success).toBe(false);
    expect(rangeQuery.safeParse({ range: "custom", from: "2000-01-01" }).success).toBe(false);
  });
});

describe("parseRange (the URL)", () => {
  // An open custom range ends today, so its start must stay within the longest range whatever day tests run.
  const recent = subDays(new Date(), 40).toISOString().slice(0, 10);

  it("reads presets from URLSearchParams and plain objects", () => {
    expect(parseRange(new URLSearchParams("range=7d"))).toEqual({ range: "7d" });
    expect(parseRange({ range: ["90d", "7d"] })).toEqual({ range: "90d" });
    expect(parseRange(new URLSearchParams("range=7d&from=2026-01-01"))).toEqual({ range: "7d" });
  });
  it("falls back to the default on anything the API would reject", () => {
    expect(parseRange(new URLSearchParams("range=1y"))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams(""))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams("range=custom"))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams("range=custom&from=2026-13-45"))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams("range=custom&from=2000-01-01"))).toEqual({ range: "30d" });
  });
  it("reads custom ranges and drops an end the API would reject", () => {
    expect(parseRange(new URLSearchParams("range=custom&from=2026-01-01&to=2026-01-31"))).toEqual({
      range: "custom",
      from: "2026-01-01",
      to: "2026-01-31",
    });
    expect(parseRange(new URLSearchParams("range=custom&from=2026-02-01&to=2026-01-01"))).toEqual({
      range: "custom",
      from: "2026-02-01",
    });
    expect(parseRange(new URLSearchParams(`range=custom&from=${recent}&to=2099-01-01`))).toEqual({
      range: "custom",
      from: recent,
    });
  });
  it("accepts exactly what the API accepts", () => {
    for (const qs of ["range=90d", "range=custom&from=2026-01-01&to=2026-01-31", `range=custom&from=${recent}`]) {
      const state = parseRange(new URLSearchParams(qs));
      expect(rangeQuery.safeParse(state).success).toBe(true);
    }
  });
});

describe("rangeEntries", () => {
  it("omits the default and clears custom days for presets", () => {
    expect(rangeEntries({ range: "30d" })).toEqual({ range: null, from: null, to: null });
    expect(rangeEntries({ range: "7d" })).toEqual({ range: "7d", from: null, to: null });
    expect(rangeEntries({ range: "custom", from: "2026-01-01" })).toEqual({
      range: "custom",
      from: "2026-01-01",
      to: null,
    });
  });
});
