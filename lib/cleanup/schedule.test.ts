import { describe, expect, it } from "vitest";
import { describeSchedule, isDue, nextRunAt, slotAfter } from "./schedule";

const created = new Date("2026-03-10T12:00:00Z"); // a Tuesday
const policy = (over: object = {}) => ({
  schedule: "weekly" as const,
  runAtMinute: 180,
  runWeekday: 1,
  enabled: true,
  lastRunAt: null,
  createdAt: created,
  ...over,
});

describe("policy schedule", () => {
  it("never runs by itself when off or disabled", () => {
    expect(nextRunAt(policy({ schedule: "off" }))).toBeNull();
    expect(nextRunAt(policy({ enabled: false }))).toBeNull();
    expect(isDue(policy({ schedule: "off" }), new Date("2027-01-01T00:00:00Z"))).toBe(false);
  });

  it("a new policy waits for its first slot: never due at the moment it is saved", () => {
    expect(nextRunAt(policy())?.toISOString()).toBe("2026-03-16T03:00:00.000Z"); // the next Monday 03:00
    expect(isDue(policy(), created)).toBe(false);
    expect(isDue(policy(), new Date("2026-03-16T02:59:59Z"))).toBe(false);
    expect(isDue(policy(), new Date("2026-03-16T03:00:00Z"))).toBe(true);
    // saved at 11:00 for 12:00 the same day
    expect(nextRunAt(policy({ schedule: "daily", runAtMinute: 13 * 60 }))?.toISOString()).toBe(
      "2026-03-10T13:00:00.000Z",
    );
    // saved right at its slot time: the next day
    expect(nextRunAt(policy({ schedule: "daily", runAtMinute: 12 * 60 }))?.toISOString()).toBe(
      "2026-03-11T12:00:00.000Z",
    );
  });

  it("is next due at the first slot after its last run; a missed slot is due at once", () => {
    const last = new Date("2026-03-16T03:00:40Z");
    expect(nextRunAt(policy({ lastRunAt: last }))?.toISOString()).toBe("2026-03-23T03:00:00.000Z");
    expect(nextRunAt(policy({ schedule: "daily", lastRunAt: last }))?.toISOString()).toBe("2026-03-17T03:00:00.000Z");
    // no instance ran on Monday: due when one runs again on Wednesday, then back on Mondays
    expect(isDue(policy(), new Date("2026-03-18T09:00:00Z"))).toBe(true);
    expect(nextRunAt(policy({ lastRunAt: new Date("2026-03-18T09:00:00Z") }))?.toISOString()).toBe(
      "2026-03-23T03:00:00.000Z",
    );
  });

  it("slots are in UTC whatever the server's time zone", () => {
    expect(
      slotAfter(
        { schedule: "weekly", runAtMinute: 23 * 60 + 30, runWeekday: 0 },
        new Date("2026-03-14T23:59:00Z"),
      ).toISOString(),
    ).toBe("2026-03-15T23:30:00.000Z");
  });

  it("says the schedule in words", () => {
    expect(describeSchedule({ schedule: "weekly", runAtMinute: 180, runWeekday: 1 })).toBe("every Monday 03:00 UTC");
    expect(describeSchedule({ schedule: "daily", runAtMinute: 22 * 60 + 5, runWeekday: 1 })).toBe(
      "every day 22:05 UTC",
    );
    expect(describeSchedule({ schedule: "off", runAtMinute: 0, runWeekday: 0 })).toBe("only when run by hand");
  });
});
