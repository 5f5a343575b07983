import { describe, expect, it } from "vitest";
import { exactBytes, formatBytes, formatBytesAxis, formatBytesDelta, formatRate } from "./bytes";

describe("formatBytes", () => {
  it("uses binary units", () => {
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3 GiB");
    expect(formatBytes(0)).toBe("0 B");
  });
  it("shows a dash for unknown values", () => {
    expect(formatBytes(null)).toBe("—");
    expect(formatBytes(undefined)).toBe("—");
    expect(formatBytes(Number.NaN)).toBe("—");
  });
});

describe("formatBytesDelta", () => {
  it("signs changes", () => {
    expect(formatBytesDelta(1024 ** 2)).toBe("+1 MiB");
    expect(formatBytesDelta(-1.5 * 1024 ** 3)).toBe("−1.5 GiB");
    expect(formatBytesDelta(0)).toBe("0 B");
  });
  it("formats a rate per day", () => {
    expect(formatRate(2 * 1024 ** 3)).toBe("+2 GiB/day");
    expect(formatRate(null)).toBe("—");
  });
});

describe("exactBytes and axis", () => {
  it("gives the exact count", () => {
    expect(exactBytes(1610612736)).toBe("1,610,612,736 bytes");
    expect(exactBytes(null)).toBe("");
  });
  it("labels axes compactly", () => {
    expect(formatBytesAxis(0)).toBe("0 B");
    expect(formatBytesAxis(10 * 1024 ** 3)).toBe("10 GiB");
    expect(formatBytesAxis(-1024)).toBe("−1 KiB");
  });
});
