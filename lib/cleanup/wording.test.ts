import { describe, expect, it } from "vitest";
import { previewUnitsText } from "./wording";

describe("previewUnitsText", () => {
  it("counts whole units", () => {
    expect(previewUnitsText(1, 400 * 1024)).toBe("1 unit");
    expect(previewUnitsText(3, 1024)).toBe("3 units");
    expect(previewUnitsText(0, 0)).toBe("0 units");
  });

  it("calls bytes estimated in a fraction of a unit what they are, never '0 units'", () => {
    expect(previewUnitsText(0, 117_248)).toBe("under 1 unit");
  });
});
