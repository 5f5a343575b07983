import { formatBytes } from "./bytes";
import { formatCount } from "./numbers";

/** A workspace volume as df shows it, with whether the full rules fire. */
export type VolumeSummary = {
  sizeBytes: number;
  usedBytes: number;
  availBytes: number;
  /** 0–100, rounded up as df does. */
  usePercent: number;
  inodes: { total: number; used: number; free: number; usePercent: number } | null;
  /** Use% at or above the volume-full rule's threshold: nothing more can be written, whatever its growth. */
  full: boolean;
  /** IUse% at or above the inodes-full rule's threshold: no new file can be created. */
  inodesFull: boolean;
};

/** One line in df's terms, for titles: "Size 10 GiB · Used 2.6 GiB · Avail 7 GiB · Use% 28% · IUse% 3%". */
export function dfSummary(v: VolumeSummary): string {
  const parts = [
    `Size ${formatBytes(v.sizeBytes)}`,
    `Used ${formatBytes(v.usedBytes)}`,
    `Avail ${formatBytes(v.availBytes)}`,
    `Use% ${v.usePercent}%`,
  ];
  if (v.inodes) parts.push(`Inodes ${formatCount(v.inodes.total)}`, `IUse% ${v.inodes.usePercent}%`);
  return parts.join(" · ");
}
