"use client";

import Link from "next/link";
import type { FleetOverview } from "@/lib/db/queries/fleet";
import { exportPaths } from "@/lib/validations/export";
import { ExportLink } from "@/components/ui/export-link";
import { RelativeTime } from "@/components/ui/time";
import { SyncFailure } from "@/components/coder/sync-failure";
import { formatCount as n } from "@/lib/format/numbers";
import { UnverifiedWorkspaces } from "@/components/coder/unverified-workspaces";

/**
 * "4,812 of 5,000 Coder workspaces report; 188 don't", the ones that don't as a list and a CSV, and the last
 * workspace sync from Coder: when, and its error when Coder could not be read (the figures are then the last
 * sync's). Nothing while no sync is configured and none ran.
 */
export function CoderCoverage({
  coverage,
  sync,
}: {
  coverage: FleetOverview["coverage"];
  sync: FleetOverview["coderSync"];
}) {
  if (!coverage && !sync) return null;
  return (
    <>
      <p className="small" data-testid="coder-coverage">
        {coverage ? (
          <>
            <strong>
              {n(coverage.reporting)} of {n(coverage.coder)} Coder workspaces report
            </strong>
            {coverage.notReporting > 0 ? (
              <>
                ;{" "}
                <Link href="/workspaces?reporting=no" data-testid="coverage-missing">
                  {n(coverage.notReporting)} don&apos;t
                </Link>{" "}
                <ExportLink
                  path={exportPaths.workspaces()}
                  params={{ reporting: "no" }}
                  title="Download Coder's workspaces that never reported as CSV"
                />
              </>
            ) : (
              "; every one does"
            )}
            .{" "}
          </>
        ) : null}
        {sync ? (
          <span className={sync.error ? "delta up" : "muted"} data-testid="coder-sync">
            {sync.error ? (
              <SyncFailure at={sync.finishedAt ?? sync.startedAt} error={sync.error} succeededAt={sync.succeededAt} />
            ) : (
              <>
                Synced from Coder <RelativeTime value={sync.finishedAt ?? sync.startedAt} />.
              </>
            )}
          </span>
        ) : null}
      </p>
      {sync?.unverifiedCount ? <UnverifiedWorkspaces count={sync.unverifiedCount} list={sync.unverified} /> : null}
    </>
  );
}
