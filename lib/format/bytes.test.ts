import { describe, expect, it } from "vitest";
import { exactBytes, formatBytes, formatBytesAxis, formatBytesDelta, formatRate } from "./bytes";

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

describe("formatBytes", () => {
  it("uses binary units", () => {
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(3 * GiB)).toBe("3 GiB");
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
  });
  it("writes four digits of a unit in the next one, so no figure reads larger than a bigger one beside it", () => {
    expect(formatBytes(1002 * MiB)).toBe("0.979 GiB");
    expect(formatBytes(1023)).toBe("0.999 KiB");
    expect(formatBytes(1000 * GiB)).toBe("0.977 TiB");
    expect(formatBytesDelta(-1010 * MiB)).toBe("−0.986 GiB");
  });
  // The figures of issue 18, which truncation showed as "18.9 GiB", "14 GiB" and "1 TiB".
  it("rounds to three significant digits instead of cutting off", () => {
    expect(formatBytes(18.99 * GiB)).toBe("19 GiB");
    expect(formatBytes(14.087 * GiB)).toBe("14.1 GiB");
    expect(formatBytes(1.072 * TiB)).toBe("1.07 TiB");
    expect(formatBytes(1.1749 * GiB)).toBe("1.17 GiB");
    expect(formatBytes(526.94 * GiB)).toBe("527 GiB");
    expect(formatBytes(9.996 * MiB)).toBe("10 MiB");
  });
  it("moves to the next unit when rounding reaches it", () => {
    expect(formatBytes(1023.9 * MiB)).toBe("1 GiB");
    expect(formatBytes(1023.99 * KiB)).toBe("1 MiB");
  });
  it("shows a dash for unknown values", () => {
    expect(formatBytes(null)).toBe("—");
    expect(formatBytes(undefined)).toBe("—");
    expect(formatBytes(Number.NaN)).toBe("—");
  });
});

describe("formatBytesDelta", () => {
  it("signs changes", () => {
    expect(formatBytesDelta(MiB)).toBe("+1 MiB");
    expect(formatBytesDelta(-1.5 * GiB)).toBe("−1.5 GiB");
    expect(formatBytesDelta(0)).toBe("0 B");
  });
  it("rounds as sizes do", () => {
    expect(formatBytesDelta(1.17 * GiB)).toBe("+1.17 GiB");
    expect(formatBytesDelta(-7.449 * GiB)).toBe("−7.45 GiB");
  });
  it("formats a rate per day", () => {
    expect(formatRate(2 * GiB)).toBe("+2 GiB/day");
    expect(formatRate(180.94 * MiB)).toBe("+181 MiB/day");
    expect(formatRate(null)).toBe("—");
  });
});

describe("exactBytes and axis", () => {
  it("gives the exact count", () => {
    expect(exactBytes(1610612736)).toBe("1,610,612,736 bytes");
    expect(exactBytes(null)).toBe("");
  });
  it("labels axes as sizes", () => {
    expect(formatBytesAxis(0)).toBe("0 B");
    expect(formatBytesAxis(10 * GiB)).toBe("10 GiB");
    expect(formatBytesAxis(1.25 * GiB)).toBe("1.25 GiB");
    expect(formatBytesAxis(-KiB)).toBe("−1 KiB");
    expect(formatBytesAxis(Number.NaN)).toBe("");
  });
});
