import { formatBytes } from "./bytes";
import { formatDays } from "./numbers";
import type { VolumeSummary } from "./volume";

/**
 * "Full in" for a volume: "full" only when df has no space left (Avail 0 or Use% 100), "no inodes" when no file
 * can be created; else the forecast's days; a volume past the full rule's threshold without a forecast says
 * what is left ("363 MiB left"), since at 99 % it can still be written.
 */
export function fullInText(v: VolumeSummary, daysUntilFull: number | null): string {
  if (v.availBytes <= 0 || v.usePercent >= 100) return "full";
  if (v.inodesFull && v.inodes && v.inodes.free <= 0) return "no inodes";
  if (daysUntilFull !== null && daysUntilFull > 0) return formatDays(daysUntilFull);
  if (v.full || v.inodesFull) return `${formatBytes(v.availBytes)} left`;
  return "—";
}
