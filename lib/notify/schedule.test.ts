import { describe, expect, it } from "vitest";
import { afterFailure, nextDigestAt } from "./schedule";

const T0 = new Date("2026-11-20T10:00:00Z");
const plus = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;

describe("afterFailure", () => {
  it("waits 1, 2, 4 … minutes, never more than an hour, then gives up after 24 hours", () => {
    expect(afterFailure(T0, 1, T0, "e")).toEqual({ status: "pending", nextAttemptAt: plus(MIN), error: "e" });
    expect(afterFailure(T0, 3, T0, "e")).toMatchObject({ nextAttemptAt: plus(4 * MIN) });
    expect(afterFailure(T0, 12, T0, "e")).toMatchObject({ nextAttemptAt: plus(60 * MIN) });
    expect(afterFailure(T0, 30, plus(22 * 60 * MIN), "e")).toMatchObject({ status: "pending" });
    expect(afterFailure(T0, 31, plus(23.5 * 60 * MIN), "refused")).toEqual({ status: "failed", error: "refused" });
  });
});

describe("nextDigestAt", () => {
  it("is the next digest hour, tomorrow's once today's has begun", () => {
    expect(nextDigestAt(new Date("2026-11-20T07:59:00Z"), 8)).toEqual(new Date("2026-11-20T08:00:00Z"));
    expect(nextDigestAt(new Date("2026-11-20T08:00:00Z"), 8)).toEqual(new Date("2026-11-21T08:00:00Z"));
    expect(nextDigestAt(new Date("2026-12-31T23:00:00Z"), 0)).toEqual(new Date("2027-01-01T00:00:00Z"));
  });
});
