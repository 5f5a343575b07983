import { describe, expect, it } from "vitest";
import { progressFrom, progressSummary, runStatus } from "./run-progress";

describe("progressSummary", () => {
  it("says a cancel that stopped every waiting job ran none of them, with an empty bar", () => {
    const p = progressFrom({ cancelled: 73 }, { bytes: 0, units: 0 });
    const status = runStatus(true, p);
    expect(status).toBe("cancelled");
    expect(progressSummary(status, p)).toEqual({
      count: 0,
      text: "cancelled: 0 of 73 jobs ran, 73 cancelled",
      share: 0,
    });
  });

  it("counts the jobs that ran before the cancel, failures included", () => {
    const p = progressFrom({ done: 3, failed: 1, cancelled: 6 }, { bytes: 10, units: 2 });
    expect(progressSummary("cancelled", p)).toMatchObject({ count: 4, share: 0.4 });
  });

  it("counts every ended job of a run that was not cancelled", () => {
    const p = progressFrom({ done: 3, expired: 1, queued: 4 }, { bytes: 0, units: 0 });
    expect(progressSummary(runStatus(false, p), p)).toEqual({ count: 4, text: "4 of 8 jobs finished", share: 0.5 });
  });
});
