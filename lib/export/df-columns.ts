import { col, type CsvColumn } from "@/lib/csv/columns";
import type { VolumeSummary } from "@/lib/format/volume";

/** A volume as df shows it (Size, Used, Avail, Use%, IUse%), in every export that lists volumes; empty without one. */
export const dfColumns = <R>(pick: (row: R) => VolumeSummary | null | undefined): CsvColumn<R>[] => [
  col("volume_size_bytes", "integer", (r) => pick(r)?.sizeBytes),
  col("volume_used_bytes", "integer", (r) => pick(r)?.usedBytes),
  col("volume_avail_bytes", "integer", (r) => pick(r)?.availBytes),
  col("volume_use_percent", "integer", (r) => pick(r)?.usePercent),
  col("inodes_use_percent", "integer", (r) => pick(r)?.inodes?.usePercent),
];
