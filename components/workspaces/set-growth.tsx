import type { WorkspaceSetGrowth } from "@/lib/db/queries/workspace-set-growth";
import { formatCountOf } from "@/lib/format/numbers";
import { rangeChange } from "@/lib/shaping/range-change";
import { Bytes } from "@/components/ui/bytes";

/**
 * One line above a table filtered by template or owner: the set's total now, its change over 30 days (the last
 * day's level less the first's, the fleet chart's baseline day) and how many workspaces it holds.
 */
export function SetGrowthLine({ growth, of }: { growth: WorkspaceSetGrowth; of: string }) {
  const change = rangeChange(growth.series);
  return (
    <p className="muted small mb-12" data-testid="set-growth">
      {of}: <Bytes value={change?.toBytes ?? growth.series.at(-1)?.bytes ?? 0} /> now
      {change ? (
        <>
          , <Bytes value={change.bytes} delta />
          {change.ratio === null
            ? ""
            : ` (${change.ratio >= 0 ? "+" : "−"}${Math.abs(change.ratio * 100).toFixed(1)}%)`}{" "}
          since {change.fromDay}
        </>
      ) : null}
      , in {formatCountOf(growth.workspaces, "workspace")}.
    </p>
  );
}
