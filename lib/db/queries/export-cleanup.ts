import "server-only";
import { sql } from "drizzle-orm";
import type { ShownJobState } from "@/lib/cleanup/job-states";
import type { JobResult } from "@/lib/cleanup/protocol";
import { DEFAULT_PAGE_SIZE, keysetRows, type KeyPart, type PageOptions } from "../keyset";
import { rowsOf, type Db } from "../types";
import { shownJobState } from "./cleanup-job-state";

// The export of one run's outcomes (the runs CSV reads the runs as the pages do: everyRun in cleanup-views.ts).
// Jobs are read in keyset pages; a job's outcomes (up to 100,000 units in one stored result) a slice at a
// time, so neither a long history nor a large result is ever held whole. Jobs are in their state as the pages
// show it (shownJobState): an export reads, it does not end lapsed or expired jobs.

/** One outcome of a job: a unit acted on, a unit skipped, an error; or the job alone while it has none. */
export type OutcomeRow = {
  workspace_id: string;
  workspace: string;
  owner: string;
  job_id: string;
  job_state: ShownJobState;
  path?: string;
  bytes?: string;
  /** deleted, trashed, would-delete, ... as the reporter said; skipped:<reason>; error. */
  action?: string;
  trash_path?: string;
  message?: string;
};

type JobHead = Pick<OutcomeRow, "workspace_id" | "workspace" | "owner" | "job_id" | "job_state"> & {
  units: number;
  skipped: number;
  errors: number;
};

// The run page's order (most to free first, then owner and name), the job id breaking ties.
const JOB_KEYS: KeyPart[] = [
  { expr: sql`j.preview_bytes`, type: "bigint", dir: "desc" },
  { expr: sql`w.owner`, type: "text", column: "owner" },
  { expr: sql`w.name`, type: "text", column: "workspace" },
  { expr: sql`j.id`, type: "uuid", column: "job_id" },
];

/** The parts of a stored result, each written as outcomes in its own way. */
const SECTIONS = {
  units: (e: Record<string, string | undefined>) => ({
    path: e.path,
    bytes: e.bytes,
    action: e.action,
    trash_path: e.trashPath,
  }),
  skipped: (e: Record<string, string | undefined>) => ({ path: e.path, bytes: e.bytes, action: `skipped:${e.reason}` }),
  errors: (e: Record<string, string | undefined>) => ({ path: e.path, action: "error", message: e.message }),
} as const satisfies Record<keyof Pick<JobResult, "units" | "skipped" | "errors">, unknown>;

/**
 * Elements `from`..`to` (0-based, both included) of one list of a job's result, each field as text. A jsonpath
 * slice reads them by position: no element before the slice is expanded (jsonb_array_elements would expand
 * the whole list for every slice).
 */
async function resultSlice(db: Db, jobId: string, list: keyof typeof SECTIONS, from: number, to: number) {
  // jsonb_path_query is a set-returning function: SQL through db.execute.
  const rows = rowsOf<{ e: Record<string, unknown> }>(
    await db.execute(sql`select x.e from cleanup_job_results r,
      jsonb_path_query(r.${sql.identifier(list)}, '$[$from to $to]', jsonb_build_object('from', ${from}::int, 'to', ${to}::int))
        with ordinality as x(e, n)
      where r.job_id = ${jobId} order by x.n`),
  );
  return rows.map(({ e }) =>
    Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v === null || v === undefined ? undefined : String(v)])),
  );
}

/**
 * Every outcome of every job of a run, jobs in the run page's order: the units acted on (or, in a dry run,
 * that would have been), then the skipped ones, then the errors. A job without any (waiting, expired,
 * cancelled, or done with nothing to do) has one row of its own, so every job of the run is in the file.
 */
export async function* runOutcomeRows(
  db: Db,
  runId: string,
  opts: PageOptions & { now?: Date } = {},
): AsyncGenerator<OutcomeRow> {
  const slice = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const state = shownJobState("j", opts.now ?? new Date());
  const jobs = keysetRows<JobHead>(
    db,
    JOB_KEYS,
    (p) => sql`select j.workspace_id, w.name as workspace, w.owner, j.id::text as job_id,
      ${state} as job_state, coalesce(jsonb_array_length(r.units), 0) as units, coalesce(jsonb_array_length(r.skipped), 0) as skipped,
      coalesce(jsonb_array_length(r.errors), 0) as errors${p.keyColumns}
    from cleanup_jobs j
    join workspaces w on w.id = j.workspace_id
    left join cleanup_job_results r on r.job_id = j.id
    where j.run_id = ${runId} and ${p.after} order by ${p.order} limit ${p.limit}`,
    opts,
  );
  for await (const job of jobs) {
    const head = {
      workspace_id: job.workspace_id,
      workspace: job.workspace,
      owner: job.owner,
      job_id: job.job_id,
      job_state: job.job_state,
    };
    if (Number(job.units) + Number(job.skipped) + Number(job.errors) === 0) yield head;
    for (const list of ["units", "skipped", "errors"] as const) {
      for (let from = 0; from < Number(job[list]); from += slice) {
        for (const e of await resultSlice(db, job.job_id, list, from, from + slice - 1))
          yield { ...head, ...SECTIONS[list](e) };
      }
    }
  }
}
