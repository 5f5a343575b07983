"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Fragment, useState } from "react";
import { JOB_STATES } from "@/lib/cleanup/protocol";
import type { JobRow, RunSummary } from "@/lib/db/queries/cleanup-views";
import { formatCount } from "@/lib/format/numbers";
import { cancelRun, cleanupKeys, restoreJob, runOptions } from "@/lib/query/cleanup";
import { exportPaths } from "@/lib/validations/export";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Panel, Stat } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { describeRun, paramsText, StateBadge } from "./run-text";

const UNITS_SHOWN = 200;

function JobResultDetail({ job }: { job: JobRow }) {
  const r = job.result;
  // a trash job moves each unit to <trash>/<job id>/<its path>: that folder once, not on every line
  const trashed = r?.units.find((u) => u.trashPath);
  const trashFolder = trashed?.trashPath?.endsWith(`/${trashed.path}`) ? trashed.trashPath.slice(0, -trashed.path.length - 1) : null;
  if (!r) return <p className="muted small">No result yet{job.interruptions ? ` (interrupted ${job.interruptions}×: the lease ran out and the job went back to the queue)` : ""}.</p>;
  return (
    <div className="stack small" style={{ gap: 8 }} data-testid="job-result">
      <div>
        {r.status}: {formatCount(r.unitsActed)} units, <Bytes value={r.bytesActed} />, {r.skipped.length} skipped, {r.errors.length} errors; ran{" "}
        <RelativeTime value={r.startedAt} /> for {Math.max(0, Math.round((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000))} s
      </div>
      {r.units.length ? (
        <details>
          <summary>Units acted ({formatCount(r.units.length)})</summary>
          {trashFolder ? <p className="muted" data-testid="trash-folder">Moved to <code>~/{trashFolder}/</code> in the workspace, each under its own path.</p> : null}
          <ul className="list">
            {r.units.slice(0, UNITS_SHOWN).map((u) => (
              // the unit's own path gets the room; where it went is one folder for the job, on hover per unit
              <li key={u.path}>
                <span className="grow" title={u.path}>{u.path}</span>
                <span className="muted" title={u.trashPath ? `~/${u.trashPath}` : undefined}>{u.action}</span> <Bytes value={u.bytes} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {r.skipped.length ? (
        <details>
          <summary>Skipped ({formatCount(r.skipped.length)})</summary>
          <ul className="list">
            {r.skipped.slice(0, UNITS_SHOWN).map((s) => (
              <li key={s.path}><span className="grow">{s.path}</span><span className="badge">{s.reason}</span> <Bytes value={s.bytes} /></li>
            ))}
          </ul>
        </details>
      ) : null}
      {r.errors.length ? (
        <ul className="list">
          {r.errors.map((e, i) => (
            <li key={i}><span className="grow">{e.path}</span><span className="critical-text">{e.message}</span></li>
          ))}
        </ul>
      ) : null}
      {r.logTail.length ? <pre className="small" style={{ maxHeight: 200, overflow: "auto" }}>{r.logTail.join("\n")}</pre> : null}
    </div>
  );
}

function canRestore(run: RunSummary, job: JobRow) {
  return job.kind === "cleanup" && job.state === "done" && run.action === "trash" && !run.dryRun && (job.unitsActed ?? 0) > 0;
}

/** /cleanup/runs/[id]: a run's progress across its jobs, each job's state and result; admins cancel and restore. */
export function RunView({ id }: { id: string }) {
  const query = useQuery(runOptions(id));
  const isAdmin = useIsAdmin();
  const client = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: cleanupKeys.all });
  const cancel = useMutation({ mutationFn: () => cancelRun(id), onSuccess: refresh });
  const restore = useMutation({ mutationFn: restoreJob, onSuccess: ({ id: runId }) => router.push(`/cleanup/runs/${runId}`) });
  return (
    <QueryView query={query} height={400}>
      {({ run, jobs }) => (
        <div className="stack">
          <div className="page-head">
            <div>
              <h1>{describeRun(run)}</h1>
              <p className="sub">
                <StateBadge state={run.status} /> {paramsText(run)} · started by {run.createdBy} <RelativeTime value={run.createdAt} />
                {run.policyId ? <> · <Link href={`/cleanup/policies/${run.policyId}`}>policy</Link></> : null}
                {run.sourceJobId ? " · restores a job's trash" : ""}
                {run.cancelledAt ? ` · cancelled by ${run.cancelledBy}` : ""}
              </p>
            </div>
            {isAdmin && (run.status === "queued" || run.status === "running") ? (
              <button type="button" className="button" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
                Cancel run
              </button>
            ) : null}
          </div>
          <div className="grid-4" data-testid="run-progress">
            <Stat label="Jobs finished" sub={`of ${formatCount(run.progress.jobs)} workspaces`}>{formatCount(run.progress.finished)}</Stat>
            <Stat label={run.dryRun ? "Would free" : "Freed so far"} sub={<>preview <Bytes value={run.previewBytes} />{run.previewEstimate ? " (estimate)" : ""}</>}>
              <Bytes value={run.progress.bytesFreed} />
            </Stat>
            <Stat label="Units acted" sub={`preview ${formatCount(run.previewUnits)}`}>{formatCount(run.progress.unitsActed)}</Stat>
            <Stat label="Not queued" sub="reporters too old to clean up">{formatCount(run.workspacesWithoutUsage)}</Stat>
          </div>
          <div className="bar" aria-label="progress"><span style={{ width: `${run.progress.jobs ? (100 * run.progress.finished) / run.progress.jobs : 0}%` }} /></div>
          <p className="row small" data-testid="run-states">
            {JOB_STATES.map((s) => (
              <span key={s}><StateBadge state={s} /> {formatCount(run.progress.states[s])}</span>
            ))}
          </p>
          {cancel.isError ? <p className="error-message">{cancel.error.message}</p> : null}
          {restore.isError ? <p className="error-message">{restore.error.message}</p> : null}
          <Panel title="Jobs" actions={<ExportLink path={exportPaths.cleanupRun(run.id)} title="Download every unit, skip and error of this run as CSV" />}>
            <div className="table-wrap">
              <table className="table" data-testid="run-jobs">
                <thead>
                  <tr>
                    <th>Workspace</th><th>State</th><th className="num">Preview</th><th className="num">Acted</th><th className="num">Skipped</th>
                    <th className="num">Errors</th><th>Claimed</th><th>Finished</th><th />
                  </tr>
                </thead>
                <tbody>
                  {jobs.map((j) => (
                    <Fragment key={j.id}>
                      <tr data-state={j.state}>
                        <td><Link href={`/workspaces/${encodeURIComponent(j.workspaceId)}`}>{j.owner}/{j.workspaceName}</Link></td>
                        <td><StateBadge state={j.state} />{j.cancelRequested && j.state === "running" ? <span className="muted small"> stopping</span> : null}</td>
                        <td className="num"><Bytes value={j.previewBytes} /></td>
                        <td className="num">{j.bytesActed === null ? "—" : <Bytes value={j.bytesActed} />}</td>
                        <td className="num">{j.result ? formatCount(j.result.skipped.length) : "—"}</td>
                        <td className="num">{j.result ? formatCount(j.result.errors.length) : "—"}</td>
                        <td>{j.claimedAt ? <RelativeTime value={j.claimedAt} /> : <span className="muted small">expires <RelativeTime value={j.expiresAt} /></span>}</td>
                        <td>{j.finishedAt ? <RelativeTime value={j.finishedAt} /> : "—"}</td>
                        <td className="nowrap">
                          <button type="button" className="button" onClick={() => setOpen(open === j.id ? null : j.id)}>{open === j.id ? "Hide" : "Details"}</button>{" "}
                          {isAdmin && canRestore(run, j) ? (
                            <button type="button" className="button" disabled={restore.isPending} onClick={() => restore.mutate(j.id)}>Restore</button>
                          ) : null}
                        </td>
                      </tr>
                      {open === j.id ? (
                        <tr><td colSpan={9}><JobResultDetail job={j} /></td></tr>
                      ) : null}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
        </div>
      )}
    </QueryView>
  );
}
