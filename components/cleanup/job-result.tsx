"use client";

import { useQuery } from "@tanstack/react-query";
import type { JobRow, JobResultView } from "@/lib/db/queries/cleanup-run-jobs";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { jobOptions } from "@/lib/query/cleanup";
import { Bytes } from "@/components/ui/bytes";
import { QueryView } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";

/** "(3)", or "(first 200 of 12,000)" when the page got the head of a longer list (the run's CSV has it all). */
const listCount = (shown: number, total: number) =>
  shown < total ? `(first ${formatCount(shown)} of ${formatCount(total)})` : `(${formatCount(total)})`;

function ResultLists({ r }: { r: JobResultView }) {
  // a trash job moves each unit to <trash>/<job id>/<its path>: that folder once, not on every line
  const trashed = r.units.find((u) => u.trashPath);
  const trashFolder = trashed?.trashPath?.endsWith(`/${trashed.path}`)
    ? trashed.trashPath.slice(0, -trashed.path.length - 1)
    : null;
  return (
    <div className="stack snug small" data-testid="job-result">
      <div>
        {r.status}: {formatCountOf(r.unitsActed, "unit")}, <Bytes value={r.bytesActed} />,{" "}
        {formatCount(r.counts.skipped)} skipped, {formatCountOf(r.counts.errors, "error")}; ran{" "}
        <RelativeTime value={r.startedAt} /> for{" "}
        {Math.max(0, Math.round((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000))} s
      </div>
      {r.units.length ? (
        <details>
          <summary>Units acted {listCount(r.units.length, r.counts.units)}</summary>
          {trashFolder ? (
            <p className="muted" data-testid="trash-folder">
              Moved to <code>~/{trashFolder}/</code> in the workspace, each under its own path.
            </p>
          ) : null}
          <ul className="list">
            {r.units.map((u) => (
              // the unit's own path gets the room; where it went is one folder for the job, on hover per unit
              <li key={u.path}>
                <span className="grow" title={u.path}>
                  {u.path}
                </span>
                <span className="muted" title={u.trashPath ? `~/${u.trashPath}` : undefined}>
                  {u.action}
                </span>{" "}
                <Bytes value={u.bytes} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {r.skipped.length ? (
        <details>
          <summary>Skipped {listCount(r.skipped.length, r.counts.skipped)}</summary>
          <ul className="list">
            {r.skipped.map((s) => (
              <li key={s.path}>
                <span className="grow">{s.path}</span>
                <span className="badge">{s.reason}</span> <Bytes value={s.bytes} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {r.errors.length ? (
        <ul className="list">
          {r.errors.map((e, i) => (
            <li key={i}>
              <span className="grow">{e.path}</span>
              <span className="critical-text">{e.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {r.logTail.length ? (
        <pre className="small" style={{ maxHeight: 200, overflow: "auto" }}>
          {r.logTail.join("\n")}
        </pre>
      ) : null}
    </div>
  );
}

/** An opened job: its result, read when opened (the jobs list carries only its counts). */
export function JobResultDetail({ job }: { job: JobRow }) {
  const query = useQuery(jobOptions(job.id));
  return (
    <QueryView query={query} height={60}>
      {({ result }) =>
        result ? (
          <ResultLists r={result} />
        ) : (
          <p className="muted small">
            No result yet
            {job.interruptions
              ? ` (interrupted ${job.interruptions}×: the lease ran out and the job went back to the queue)`
              : ""}
            .
          </p>
        )
      }
    </QueryView>
  );
}
