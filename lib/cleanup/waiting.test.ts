import { describe, expect, it } from "vitest";
import { hoursSince, waitingText } from "./waiting";

const now = new Date("2026-11-27T12:00:00Z");
const at = (lastReportAt: string | null, jobs = 73) => ({
  jobs,
  lastReportAt,
  quietHours: hoursSince(lastReportAt, now),
});

describe("waitingText", () => {
  it("names the hours since the newest report of the waiting jobs' workspaces", () => {
    expect(waitingText(at("2026-11-27T02:30:00Z"))).toMatch(
      /^No reporter has called in for 9 hours: the workspaces of the 73 waiting jobs last reported then\./,
    );
    expect(waitingText(at("2026-11-27T10:59:00Z", 1))).toMatch(/for 1 hour: the waiting job's/);
  });

  it("says nothing while a reporter called in within the hour, or when no job waits", () => {
    expect(waitingText(at("2026-11-27T11:10:00Z", 5))).toBeNull();
    expect(waitingText(at(null, 0))).toBeNull();
  });

  it("says when the workspaces never reported", () => {
    expect(waitingText(at(null, 2))).toMatch(/^No reporter has called in yet/);
  });
});
