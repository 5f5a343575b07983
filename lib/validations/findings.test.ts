import { describe, expect, it } from "vitest";
import { parseFindingsSearchParams } from "./findings";

describe("findings search params", () => {
  it("reads valid filters", () => {
    expect(
      parseFindingsSearchParams(new URLSearchParams("severity=critical&rule=large-session&workspace=ws-1")),
    ).toEqual({
      severity: "critical",
      rule: "large-session",
      workspace: "ws-1",
    });
  });
  it("drops invalid ones and leaves absent keys out", () => {
    expect(parseFindingsSearchParams(new URLSearchParams("severity=urgent&rule=DROP%20TABLE"))).toEqual({});
    expect(parseFindingsSearchParams({})).toEqual({});
    expect(parseFindingsSearchParams({ workspace: "   ", severity: "warning" })).toEqual({ severity: "warning" });
  });
});
