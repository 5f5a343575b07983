// The planner on plain data: each parameter alone and combined, protect, minimum age, and the job's caps.

import { describe, expect, it } from "vitest";
import { capJob, plan, type PlanUnit } from "./plan";

const NOW = 1_000_000_000;
const DAY = 86_400;
/** Units u0 (newest, 0.5 day) ... u9 (oldest, 45 days), 100 bytes each but u9 1000. */
const units: PlanUnit[] = [0.5, 2, 4, 6, 8, 10, 15, 20, 30, 45].map((d, i) => ({
  path: `u${i}`,
  bytes: i === 9 ? 1000 : 100,
  newest: NOW - d * DAY,
  protected: false,
}));
const run = (
  params: Parameters<typeof plan>[1]["params"],
  extra: Partial<Parameters<typeof plan>[1]> = {},
  list = units,
) => plan(list, { params, nowSec: NOW, minAgeHours: 24, ...extra });
const paths = (xs: { path: string }[]) => xs.map((x) => x.path);

describe("plan", () => {
  it("olderThanDays selects strictly older units, oldest first", () => {
    expect(paths(run({ olderThanDays: 10 }).selected)).toEqual(["u9", "u8", "u7", "u6"]);
    expect(run({ olderThanDays: 10 }).skipped).toEqual([]);
  });
  it("keepNewest keeps exactly N, listing them as kept", () => {
    const p = run({ keepNewest: 7 });
    expect(paths(p.selected)).toEqual(["u9", "u8", "u7"]);
    expect(p.skipped.map((s) => [s.unit.path, s.reason])).toEqual(
      ["u0", "u1", "u2", "u3", "u4", "u5", "u6"].map((x) => [x, "kept"]),
    );
  });
  it("combines olderThanDays and keepNewest (both must hold)", () => {
    expect(paths(run({ olderThanDays: 5, keepNewest: 8 }).selected)).toEqual(["u9", "u8"]);
    expect(paths(run({ olderThanDays: 25, keepNewest: 2 }).selected)).toEqual(["u9", "u8"]);
  });
  it("capBytes removes oldest first until the total is at most the cap", () => {
    expect(paths(run({ capBytes: 1900 }).selected)).toEqual([]); // total 1900
    expect(paths(run({ capBytes: 1899 }).selected)).toEqual(["u9"]);
    expect(paths(run({ capBytes: 700 }).selected)).toEqual(["u9", "u8", "u7"]);
    expect(paths(run({ capBytes: 700, olderThanDays: 25 }).selected)).toEqual(["u9", "u8"]);
  });
  it("skips protected and recent units (never below 1 hour)", () => {
    const list = units.map((u) => (u.path === "u8" ? { ...u, protected: true } : u));
    const p = run({ olderThanDays: 0 }, {}, list);
    expect(p.skipped.map((s) => [s.unit.path, s.reason])).toEqual([
      ["u8", "protected"],
      ["u0", "recent"],
    ]);
    const young = [{ path: "y", bytes: 1, newest: NOW - 1800, protected: false }];
    expect(run({ olderThanDays: 0 }, { minAgeHours: 0 }, young).skipped.map((s) => s.reason)).toEqual(["recent"]);
  });
  it("a cap walks past protected units to reach the cap with others", () => {
    const list = units.map((u) => (u.path === "u9" ? { ...u, protected: true } : u));
    expect(paths(run({ capBytes: 1700 }, {}, list).selected)).toEqual(["u8", "u7"]);
  });
  it("the job's caps stop at the first unit over either cap", () => {
    const c = capJob(units, 3, 10_000);
    expect(paths(c.selected)).toEqual(["u0", "u1", "u2"]);
    expect(c.skipped).toHaveLength(7);
    expect(paths(capJob([...units].reverse(), 100, 1050).selected)).toEqual(["u9"]);
  });
});
