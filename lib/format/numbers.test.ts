import { describe, expect, it } from "vitest";
import { formatCountOf, formatPercent } from "./numbers";

describe("formatCountOf", () => {
  it("says one in the singular and every other count in the plural", () => {
    expect(formatCountOf(1, "workspace")).toBe("1 workspace");
    expect(formatCountOf(0, "workspace")).toBe("0 workspaces");
    expect(formatCountOf(2, "unit")).toBe("2 units");
    expect(formatCountOf(12_345, "job")).toBe("12,345 jobs");
  });

  it("takes an irregular plural", () => {
    expect(formatCountOf(3, "entry", "entries")).toBe("3 entries");
    expect(formatCountOf(1, "entry", "entries")).toBe("1 entry");
  });
});

describe("formatPercent", () => {
  it("never writes a share that is something as 0%", () => {
    expect(formatPercent(102 / 40_000)).toBe("<1%");
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.004)).toBe("<1%");
    expect(formatPercent(0.005)).toBe("1%");
    expect(formatPercent(0.0004, 1)).toBe("<0.1%");
    expect(formatPercent(0.2916)).toBe("29%");
  });
});
