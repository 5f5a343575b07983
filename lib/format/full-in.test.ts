import { describe, expect, it } from "vitest";
import { fullInText } from "./full-in";
import type { VolumeSummary } from "./volume";

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const volume = (v: Partial<VolumeSummary>): VolumeSummary => ({
  sizeBytes: 30 * GiB,
  usedBytes: 20 * GiB,
  availBytes: 10 * GiB,
  usePercent: 67,
  inodes: null,
  full: false,
  inodesFull: false,
  ...v,
});

describe("fullInText", () => {
  it("says full only when df has no space left", () => {
    expect(fullInText(volume({ availBytes: 0, usePercent: 100, full: true }), null)).toBe("full");
  });

  it("does not say full at 99 % with 363 MiB free: what is left, or the forecast", () => {
    const v = volume({ availBytes: 363 * MiB, usePercent: 99, full: true });
    expect(fullInText(v, null)).toBe("363 MiB left");
    expect(fullInText(v, 2.5)).toBe("2.5 days");
  });

  it("says no inodes when no file can be created, and the forecast or a dash otherwise", () => {
    expect(
      fullInText(volume({ inodesFull: true, inodes: { total: 10, used: 10, free: 0, usePercent: 100 } }), null),
    ).toBe("no inodes");
    // past the inodes threshold, the inodes left, not the bytes' forecast of a year
    expect(
      fullInText(volume({ inodesFull: true, inodes: { total: 1e6, used: 97e4, free: 3e4, usePercent: 97 } }), 400),
    ).toBe("30,000 inodes left");
    expect(fullInText(volume({}), 40)).toBe("40 days");
    expect(fullInText(volume({}), null)).toBe("—");
  });
});
