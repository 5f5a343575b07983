import Link from "next/link";
import type { OverlappingRun } from "@/lib/db/queries/cleanup-overlap";
import { formatCountOf } from "@/lib/format/numbers";
import { RelativeTime } from "@/components/ui/time";

/** Runs of the same cleanup still under way on some of these workspaces: a second run would act beside them. */
export function OverlapWarning({ runs }: { runs: OverlappingRun[] }) {
  if (runs.length === 0) return null;
  return (
    <div className="notice warn small" role="status" data-testid="overlap-warning">
      <strong>A run of this cleanup is already queued or running</strong> on some of these workspaces:{" "}
      {runs.map((r, i) => (
        <span key={r.id}>
          {i ? "; " : ""}
          <Link href={`/cleanup/runs/${r.id}`}>{r.dryRun ? "a dry run" : "a run"}</Link> started{" "}
          <RelativeTime value={r.createdAt} /> ({formatCountOf(r.workspaces, "workspace")} in common)
        </span>
      ))}
      . Cancel it first, or wait for it, unless both are meant.
    </div>
  );
}
