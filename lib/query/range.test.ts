import { describe, expect, it } from "vitest";
import { parseRange, rangeEntries } from "./range";

describe("parseRange", () => {
  it("reads presets from URLSearchParams and plain objects", () => {
    expect(parseRange(new URLSearchParams("range=7d"))).toEqual({ range: "7d" });
    expect(parseRange({ range: ["90d", "7d"] })).toEqual({ range: "90d" });
  });
  it("falls back on anything invalid", () => {
    expect(parseRange(new URLSearchParams("range=1y"))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams(""))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams("range=custom"))).toEqual({ range: "30d" });
    expect(parseRange(new URLSearchParams("range=custom&from=2026-13-45"))).toEqual({ range: "30d" });
  });
  it("reads custom ranges and drops an end before the start", () => {
    expect(parseRange(new URLSearchParams("range=custom&from=2026-01-01&to=2026-01-31"))).toEqual({
      range: "custom",
      from: "2026-01-01",
      to: "2026-01-31",
    });
    expect(parseRange(new URLSearchParams("range=custom&from=2026-02-01&to=2026-01-01"))).toEqual({
      range: "custom",
      from: "2026-02-01",
    });
  });
});

describe("rangeEntries", () => {
  it("omits the default and clears custom days for presets", () => {
    expect(rangeEntries({ range: "30d" })).toEqual({ range: null, from: null, to: null });
    expect(rangeEntries({ range: "7d" })).toEqual({ range: "7d", from: null, to: null });
    expect(rangeEntries({ range: "custom", from: "2026-01-01" })).toEqual({ range: "custom", from: "2026-01-01", to: null });
  });
});
