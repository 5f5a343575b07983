import { describe, expect, it } from "vitest";
import { volume as volumeSchema } from "./schema";
import { inodeUsePercent, volumeUsePercent } from "@/tests/support/df";
import { volumeFromStatfs } from "./volume";

// An ext4 volume with blocks reserved for root (bfree − bavail of them), as statfs reports it.
const RESERVED = { bsize: 4096, blocks: 1000, bfree: 400, bavail: 350, files: 640, ffree: 600 };

describe("volumeFromStatfs", () => {
  it("gives df's Size, Used and Avail, and df -i's Inodes, IUsed and IFree", () => {
    expect(volumeFromStatfs(RESERVED)).toEqual({
      totalBytes: 1000 * 4096,
      usedBytes: 600 * 4096,
      freeBytes: 350 * 4096,
      inodes: { total: 640, used: 40, free: 600 },
    });
    expect(volumeSchema.safeParse(volumeFromStatfs(RESERVED)).success).toBe(true);
  });

  it("leaves inodes out where the file system has no fixed inode count", () => {
    expect(volumeFromStatfs({ ...RESERVED, files: 0, ffree: 0 }).inodes).toBeUndefined();
  });

  it("leaves out what does not add up rather than send a volume the server refuses", () => {
    const odd = volumeFromStatfs({ ...RESERVED, bfree: 100, bavail: 950 }); // more available than free
    expect(odd).toEqual({
      totalBytes: 1000 * 4096,
      freeBytes: 950 * 4096,
      inodes: { total: 640, used: 40, free: 600 },
    });
    expect(volumeFromStatfs({ ...RESERVED, ffree: 700 }).inodes).toBeUndefined();
  });
});

describe("volumeUsePercent (df's Use%)", () => {
  it("is Used ÷ (Used + Avail), so the reserved blocks count as neither", () => {
    const v = volumeFromStatfs(RESERVED);
    expect(v.totalBytes - v.usedBytes! - v.freeBytes).toBe(50 * 4096); // reserved for root
    expect(volumeUsePercent(v)).toBe(64); // 600 ÷ 950 = 63.2%, rounded up; 1 − Avail ÷ Size would say 65%
  });

  it("rounds up like df, but not a whole percent", () => {
    expect(volumeUsePercent({ totalBytes: 300, usedBytes: 1, freeBytes: 299 })).toBe(1);
    expect(volumeUsePercent({ totalBytes: 200, usedBytes: 100, freeBytes: 100 })).toBe(50);
    expect(volumeUsePercent({ totalBytes: 100, usedBytes: 0, freeBytes: 100 })).toBe(0);
    expect(volumeUsePercent({ totalBytes: 100, usedBytes: 100, freeBytes: 0 })).toBe(100);
    expect(volumeUsePercent({ totalBytes: 100, usedBytes: 7, freeBytes: 93 })).toBe(7); // not 7.000000000000001 → 8
    const big = 2 ** 59; // a volume near the schema's 1 EiB limit: one block over half is 51%
    expect(volumeUsePercent({ totalBytes: big * 2, usedBytes: big + 4096, freeBytes: big - 4096 })).toBe(51);
  });

  it("falls back to 1 − free ÷ total for reports without usedBytes (reporters before 0.2)", () => {
    expect(volumeUsePercent({ totalBytes: 1000 * 4096, freeBytes: 350 * 4096 })).toBe(65);
    expect(volumeUsePercent({ totalBytes: 1000, freeBytes: 999 })).toBe(1);
  });

  it("is null where df prints '-'", () => {
    expect(volumeUsePercent({ totalBytes: 0, usedBytes: 0, freeBytes: 0 })).toBeNull();
    expect(volumeUsePercent({ totalBytes: 0, freeBytes: 0 })).toBeNull();
  });
});

describe("inodeUsePercent (df -i's IUse%)", () => {
  it("is IUsed ÷ (IUsed + IFree), rounded up, and null without inode figures", () => {
    expect(inodeUsePercent(volumeFromStatfs(RESERVED))).toBe(7); // 40 ÷ 640 = 6.25%
    expect(inodeUsePercent({ totalBytes: 1, freeBytes: 1 })).toBeNull();
  });
});
