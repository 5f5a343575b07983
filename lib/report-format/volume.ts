// A volume's figures as df shows them, filled by the reporter from statfs. Plain arithmetic: no Node-only
// import, no runtime dependency (the reporter bundles it). The dashboard's Use% is computed once, in the
// database (the workspaces table's generated columns); tests/support/df.ts holds df's formula as the oracle.

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
