import { describe, expect, it } from "vitest";
import { isDue, nextRunAt } from "./schedule";

const now = new Date("2026-03-10T12:00:00Z");
const created = new Date("2026-03-01T00:00:00Z");

describe("policy schedule", () => {
  it("never runs by itself when off or disabled", () => {
    expect(nextRunAt({ schedule: "off", enabled: true, lastRunAt: null, createdAt: created }, now)).toBeNull();
    expect(nextRunAt({ schedule: "daily", enabled: false, lastRunAt: null, createdAt: created }, now)).toBeNull();
    expect(isDue({ schedule: "off", enabled: true, lastRunAt: null, createdAt: created }, now)).toBe(false);
  });
  it("is due at once when it never ran", () => {
    expect(isDue({ schedule: "weekly", enabled: true, lastRunAt: null, createdAt: created }, now)).toBe(true);
  });
  it("is due a day or a week after the last run", () => {
    const last = new Date("2026-03-09T13:00:00Z");
    expect(nextRunAt({ schedule: "daily", enabled: true, lastRunAt: last, createdAt: created }, now)?.toISOString()).toBe("2026-03-10T13:00:00.000Z");
    expect(isDue({ schedule: "daily", enabled: true, lastRunAt: last, createdAt: created }, now)).toBe(false);
    expect(isDue({ schedule: "daily", enabled: true, lastRunAt: new Date("2026-03-09T12:00:00Z"), createdAt: created }, now)).toBe(true);
    expect(isDue({ schedule: "weekly", enabled: true, lastRunAt: last, createdAt: created }, now)).toBe(false);
    expect(nextRunAt({ schedule: "weekly", enabled: true, lastRunAt: last, createdAt: created }, now)?.toISOString()).toBe("2026-03-16T13:00:00.000Z");
  });
});
