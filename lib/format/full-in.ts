import { formatBytes } from "./bytes";
import { formatCount, formatDays } from "./numbers";
import type { VolumeSummary } from "./volume";

/**
 * "Full in" for a volume: "full" only when df has no space left (Avail 0 or Use% 100); past the inodes rule's
 * threshold, the inodes left ("no inodes" at none); else the forecast's days; a volume past the full rule's
 * threshold without a forecast says what is left ("363 MiB left"), since at 99 % it can still be written.
 */
export function fullInText(v: VolumeSummary, daysUntilFull: number | null): string {
  if (v.availBytes <= 0 || v.usePercent >= 100) return "full";
  // Past the inodes rule's threshold, inodes are what runs out first, whatever the bytes' forecast.
  if (v.inodesFull && v.inodes) return v.inodes.free <= 0 ? "no inodes" : `${formatCount(v.inodes.free)} inodes left`;
  if (daysUntilFull !== null && daysUntilFull > 0) return formatDays(daysUntilFull);
  if (v.full) return `${formatBytes(v.availBytes)} left`;
  return "—";
}
