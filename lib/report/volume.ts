// A volume's figures as df shows them. Shared by the reporter (which fills a report's volume from statfs) and
// the dashboard (which shows Use%), so it is plain arithmetic: no Node-only import, no runtime dependency.

import type { Volume } from "./schema";

/** The statfs(2) fields df reads, as Node's fs.statfsSync returns them. */
export type StatfsFigures = {
  /** Node gives f_bsize, not df's f_frsize; Linux file systems report the same value in both. */
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
  files: number;
  ffree: number;
};

/**
 * The report's volume from statfs, column for column `df -B1` (Size, Used, Avail) and `df -i` (Inodes,
 * IUsed, IFree). A figure df itself would not print consistently (a file system reporting more free than
 * total) is left out rather than sent: the server refuses a report whose volume does not add up.
 */
export function volumeFromStatfs(s: StatfsFigures): Volume {
  const totalBytes = s.blocks * s.bsize;
  const freeBytes = Math.min(s.bavail * s.bsize, totalBytes);
  const volume: Volume = { totalBytes, freeBytes };
  const usedBytes = (s.blocks - s.bfree) * s.bsize;
  if (usedBytes >= 0 && usedBytes + freeBytes <= totalBytes) volume.usedBytes = usedBytes;
  // files is 0 where the file system has no fixed inode count (btrfs, some FUSE): df -i prints 0 and "-".
  if (s.files > 0 && s.ffree <= s.files) volume.inodes = { total: s.files, used: s.files - s.ffree, free: s.ffree };
  return volume;
}

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
