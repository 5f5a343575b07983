// df's Use% and IUse% written out, as the oracle the tests hold the reporter (against df itself) and the
// database's generated columns against.
import type { Volume } from "@/lib/report-format/schema";

/**
 * df's Use%: Used ÷ (Used + Avail), in whole percent rounded up (df rounds up, so a nearly full volume never
 * shows 100% before it is full). The space reserved for root is in neither, which is why a volume can be at
 * 100% while Size − Used is not zero. Reports from reporters before 0.2 have no usedBytes: then it is
 * 1 − free ÷ total, which counts the reserved space as used. Null where df prints "-" (an empty volume).
 */
export function volumeUsePercent(v: Volume): number | null {
  if (v.usedBytes !== undefined) return ceilPercent(v.usedBytes, v.usedBytes + v.freeBytes);
  return ceilPercent(v.totalBytes - v.freeBytes, v.totalBytes);
}

/** df -i's IUse%: IUsed ÷ (IUsed + IFree), rounded up; null without inode figures. */
export function inodeUsePercent(v: Volume): number | null {
  return v.inodes ? ceilPercent(v.inodes.used, v.inodes.used + v.inodes.free) : null;
}

/**
 * ⌈part × 100 ÷ whole⌉. Multiplied before dividing: 7 ÷ 100 × 100 is 7.000000000000001 in floating point,
 * which would round up to 8%.
 */
function ceilPercent(part: number, whole: number): number | null {
  if (!(whole > 0) || part < 0) return null;
  return Math.ceil((part * 100) / whole);
}
