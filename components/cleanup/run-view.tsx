"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { progressSummary } from "@/lib/cleanup/run-progress";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { runOptions } from "@/lib/query/cleanup";
import { useCancelRun } from "@/lib/query/use-cleanup-mutations";
import { parseRunJobsSearchParams, type RunJobsView } from "@/lib/validations/cleanup";
import { exportPaths } from "@/lib/validations/export";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Bytes } from "@/components/ui/bytes";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { Panel, Stat } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import { PromoteDryRun } from "./promote-dry-run";
import { JobsViewPicker, RunJobs } from "./run-jobs";
import { describeRun, paramsText, StateBadge } from "./run-text";
import { WaitingNote } from "./waiting-note";
import { PageHeader } from "@/components/ui/page-header";
import { Button } from "@/components/ui/button";

/** /cleanup/runs/[id]: a run's progress across its jobs, each job's state and result; admins cancel and restore. */
export function RunView({ id }: { id: string }) {
  const view = parseRunJobsSearchParams(useSearchParams());
  const setSearchParams = useSetSearchParams();
  const setView = (v: RunJobsView) =>
    setSearchParams({ sort: v.sort === "preview" ? null : v.sort, state: v.state ?? null }, "replace");
  const query = useInfiniteQuery(runOptions(id, view));
  const isAdmin = useIsAdmin();
  const cancel = useCancelRun(id);
  if (query.isPending) return <Skeleton height={400} />;
  if (query.isError && !query.data) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  // The first page is refetched first: its run is the newest.
  const run = query.data.pages[0].run;
  const summary = progressSummary(run.status, run.progress);
  return (
    <div className="stack">
      {query.isError ? (
        <p className="stale-note" role="status">
          Showing earlier data: the last refresh failed ({query.error.message}).
        </p>
      ) : null}
      <PageHeader
        title={describeRun(run)}
        sub={
          <>
            <StateBadge state={run.status} /> {paramsText(run)} · started by {run.createdBy}{" "}
            <RelativeTime value={run.createdAt} />
            {run.policyId ? (
              <>
                {" "}
                · <Link href={`/cleanup/policies/${run.policyId}`}>policy</Link>
              </>
            ) : null}
            {run.sourceJobId ? " · restores a job's trash" : ""}
            {run.cancelledAt ? ` · cancelled by ${run.cancelledBy}` : ""}
          </>
        }
        actions={
          <>
            <PromoteDryRun run={run} />
            {isAdmin && (run.status === "queued" || run.status === "running") ? (
              <Button pending={cancel.isPending} onClick={() => cancel.mutate()}>
                Cancel run
              </Button>
            ) : null}
          </>
        }
      />
      <WaitingNote waiting={query.data.pages[0].waiting} status={run.status} />
      <div className="grid-4" data-testid="run-progress">
        <Stat
          label={run.status === "cancelled" ? "Jobs run before the cancel" : "Jobs finished"}
          sub={`of ${formatCountOf(run.progress.jobs, "workspace")}${run.status === "cancelled" ? ` · ${formatCount(run.progress.states.cancelled)} cancelled` : ""}`}
        >
          {formatCount(summary.count)}
        </Stat>
        <Stat
          label={run.dryRun ? "Would free" : "Freed so far"}
          sub={
            <>
              preview <Bytes value={run.previewBytes} estimate={run.previewEstimate} />
            </>
          }
        >
          <Bytes value={run.progress.bytesFreed} />
        </Stat>
        <Stat label="Units acted" sub={`preview ${formatCount(run.previewUnits)}`}>
          {formatCount(run.progress.unitsActed)}
        </Stat>
        <Stat label="Not queued" sub="reporters too old to clean up">
          {formatCount(run.workspacesWithoutUsage)}
        </Stat>
      </div>
      <div className="bar" aria-label={`progress: ${summary.text}`}>
        <span style={{ width: `${100 * summary.share}%` }} />
      </div>
      <p className="row small" data-testid="run-states">
        {/* a lapsed lease is shown only while there is one: the scheduler's next sweep ends it */}
        {SHOWN_JOB_STATES.filter((s) => s !== "lapsed" || run.progress.states.lapsed).map((s) => (
          <span key={s}>
            <StateBadge state={s} /> {formatCount(run.progress.states[s])}
          </span>
        ))}
      </p>
      {cancel.isError ? <p className="error-message">{cancel.error.message}</p> : null}
      <Panel
        title="Jobs"
        actions={
          <ExportLink
            path={exportPaths.cleanupRun(run.id)}
            title="Download every unit, skip and error of this run as CSV"
          />
        }
      >
        <JobsViewPicker view={view} states={run.progress.states} onChange={setView} />
        <RunJobs run={run} query={query} view={view} />
      </Panel>
    </div>
  );
}
