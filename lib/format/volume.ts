import type { VolumeSummary } from "@/lib/db/queries/volume";
import { formatBytes } from "./bytes";
import { formatCount } from "./numbers";

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
