import { subDays } from "date-fns";
import { describe, expect, it } from "vitest";
import { formatAbsolute, formatDay, formatDayLong, formatRelative } from "./time";
import { formatCount, formatDays, formatPercent } from "./numbers";

const now = Date.parse("2026-01-10T12:00:00Z");

describe("relative times", () => {
  it("says how long ago", () => {
    expect(formatRelative("2026-01-10T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatRelative(subDays(now, 2), now)).toBe("2 days ago");
    expect(formatRelative("2026-01-15T12:00:00Z", now)).toBe("in 5 days");
    expect(formatRelative(now - 10_000, now)).toBe("just now");
  });
  it("handles missing and invalid values", () => {
    expect(formatRelative(null, now)).toBe("—");
    expect(formatRelative("not a date", now)).toBe("—");
    expect(formatAbsolute(undefined)).toBe("");
  });
  it("gives the absolute time in UTC", () => {
    expect(formatAbsolute("2026-01-10T09:03:59Z")).toBe("2026-01-10 09:03 UTC");
  });
});

describe("days", () => {
  it("formats UTC days whatever the local zone", () => {
    expect(formatDay("2026-01-05")).toBe("Jan 5");
    expect(formatDay(Date.parse("2026-01-05T00:00:00Z"))).toBe("Jan 5");
    expect(formatDayLong("2026-01-05")).toBe("Mon, Jan 5 2026");
  });
});

describe("numbers", () => {
  it("formats percents, counts, day spans", () => {
    expect(formatPercent(0.423)).toBe("42%");
    expect(formatPercent(null)).toBe("—");
    expect(formatCount(12345)).toBe("12,345");
    expect(formatDays(0.4)).toBe("<1 day");
    expect(formatDays(3.25)).toBe("3.3 days");
    expect(formatDays(1)).toBe("1 day");
    expect(formatDays(12.6)).toBe("13 days");
    expect(formatDays(-2)).toBe("now");
    expect(formatDays(400)).toBe("> 1 year");
  });
});
