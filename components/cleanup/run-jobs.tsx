"use client";

import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { SHOWN_JOB_STATES, type ShownJobState } from "@/lib/cleanup/job-states";
import { restoreRefusal } from "@/lib/cleanup/restore";
import type { JobRow } from "@/lib/db/queries/cleanup-run-jobs";
import type { RunDetail, RunSummary } from "@/lib/db/queries/cleanup-views";
import { formatCount } from "@/lib/format/numbers";
import { useRestoreJob } from "@/lib/query/use-cleanup-mutations";
import { RUN_JOB_SORTS, type RunJobSort, type RunJobsView } from "@/lib/validations/cleanup";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { DataTableMore } from "@/components/ui/data-table-pager";
import { RelativeTime } from "@/components/ui/time";
import { JobResultDetail } from "./job-result";
import { StateBadge, stateLabel } from "./run-text";
import { Select } from "@/components/ui/select";
import { Button } from "@/components/ui/button";

const SORT_LABEL: Record<RunJobSort, string> = {
  preview: "most to free first",
  freed: "most freed first",
  workspace: "workspace (owner, name)",
  finished: "last finished first",
};

/**
 * When the job was claimed and how its claim stands: a running job's lease (when it ends, or that it lapsed),
 * an unclaimed one's wait (it expires unclaimed at its expiry, which is not a lease).
 */
function Claim({ job }: { job: JobRow }) {
  if (!job.claimedAt) {
    if (job.state === "queued")
      return (
        <span className="muted small">
          not yet (expires <RelativeTime value={job.expiresAt} /> if unclaimed)
        </span>
      );
    return <span className="muted small">never</span>;
  }
  const lease =
    job.state === "running" ? (
      <>
        lease ends <RelativeTime value={job.leaseExpiresAt} />
      </>
    ) : job.state === "lapsed" ? (
      <>
        lease lapsed <RelativeTime value={job.leaseExpiresAt} />
      </>
    ) : job.state === "interrupted" ? (
      <>back in the queue</>
    ) : null;
  return (
    <>
      <RelativeTime value={job.claimedAt} />
      {lease ? <div className="muted small">{lease}</div> : null}
    </>
  );
}

const jobColumns: ColumnDef<JobRow>[] = [
  column("workspace", "Workspace", (j) => (
    <Link href={`/workspaces/${encodeURIComponent(j.workspaceId)}`}>
      {j.owner}/{j.workspaceName}
    </Link>
  )),
  column("state", "State", (j) => (
    <>
      <StateBadge state={j.state} />
      {j.cancelRequested && (j.state === "running" || j.state === "lapsed") ? (
        <span className="muted small"> stopping</span>
      ) : null}
      {j.cancelReason ? <span className="muted small"> {j.cancelReason}</span> : null}
    </>
  )),
  column("preview", "Preview", (j) => <Bytes value={j.previewBytes} />, { className: "num" }),
  column("acted", "Acted", (j) => (j.bytesActed === null ? "—" : <Bytes value={j.bytesActed} />), { className: "num" }),
  column("skipped", "Skipped", (j) => (j.skippedUnits === null ? "—" : formatCount(j.skippedUnits)), {
    className: "num",
  }),
  column("errors", "Errors", (j) => (j.errorCount === null ? "—" : formatCount(j.errorCount)), { className: "num" }),
  column("claimed", "Claimed", (j) => <Claim job={j} />),
  column("finished", "Finished", (j) => (j.finishedAt ? <RelativeTime value={j.finishedAt} /> : "—")),
];

/** The view's choices: the order and the one state to show (the run's counts by state are above). */
export function JobsViewPicker({
  view,
  states,
  onChange,
}: {
  view: RunJobsView;
  states: Record<ShownJobState, number>;
  onChange: (v: RunJobsView) => void;
}) {
  return (
    <div className="form-row" role="group" aria-label="Which jobs, in which order">
      <Select
        look="plain"
        label="State"
        value={view.state ?? ""}
        options={[
          { value: "", label: "any" },
          ...SHOWN_JOB_STATES.map((s) => ({ value: s, label: `${stateLabel(s)} (${formatCount(states[s])})` })),
        ]}
        onValue={(v) => onChange({ ...view, state: (v || undefined) as ShownJobState | undefined })}
      />
      <Select
        look="plain"
        label="Order"
        value={view.sort}
        options={RUN_JOB_SORTS.map((s) => ({ value: s, label: SORT_LABEL[s] }))}
        onValue={(v) => onChange({ ...view, sort: v as RunJobSort })}
      />
    </div>
  );
}

/** A run's jobs, a page at a time in the view's order; each opens to its result; admins restore what a job trashed. */
export function RunJobs({
  run,
  query,
  view,
}: {
  run: RunSummary;
  query: UseInfiniteQueryResult<InfiniteData<RunDetail>>;
  view: RunJobsView;
}) {
  const isAdmin = useIsAdmin();
  const router = useRouter();
  const [open, setOpen] = useState<string | null>(null);
  const restore = useRestoreJob({ onSuccess: ({ id: runId }) => router.push(`/cleanup/runs/${runId}`) });
  const jobs = query.data?.pages.flatMap((p) => p.jobs) ?? [];
  return (
    <>
      {restore.isError ? <p className="error-message">{restore.error.message}</p> : null}
      <DataTable
        data={jobs}
        columns={[
          ...jobColumns,
          column<JobRow>(
            "open",
            "",
            (j) => (
              <>
                <Button onClick={() => setOpen(open === j.id ? null : j.id)}>
                  {open === j.id ? "Hide" : "Details"}
                </Button>{" "}
                {isAdmin && restoreRefusal(run, j, new Date()) === null ? (
                  <Button pending={restore.isPending} onClick={() => restore.mutate(j.id)}>
                    Restore
                  </Button>
                ) : null}
              </>
            ),
            { cellClassName: "nowrap" },
          ),
        ]}
        rowId={(j) => j.id}
        testId="run-jobs"
        stacked={3}
        busy={query.isFetching}
        rowProps={(j) => ({ "data-state": j.state })}
        rowDetail={(j) => (open === j.id ? <JobResultDetail job={j} /> : null)}
        empty={
          query.isFetching ? null : (
            <p className="muted">{view.state ? `No job is ${stateLabel(view.state)}.` : "This run has no jobs."}</p>
          )
        }
        emptyUnderHeader
      />
      <DataTableMore query={query}>
        More jobs ({formatCount(jobs.length)} of{" "}
        {formatCount(view.state ? run.progress.states[view.state] : run.progress.jobs)} shown)
      </DataTableMore>
    </>
  );
}
