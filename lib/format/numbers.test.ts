import { describe, expect, it } from "vitest";
import { formatCountOf } from "./numbers";

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
