// A run's progress and status from its jobs counted by shown state: one rule for the pages (the runs list, a
// run's page) and the runs CSV, which read runs through the same query (lib/db/queries/cleanup-views.ts).
import { FINAL_JOB_STATES, SHOWN_JOB_STATES, type ShownJobState } from "./job-states";

export type RunProgress = {
  /** Jobs per state as shown (every state present, zeros included). */
  states: Record<ShownJobState, number>;
  jobs: number;
  bytesFreed: number;
  unitsActed: number;
  /** Jobs that reached an end state. */
  finished: number;
};

/** queued (nothing claimed yet), running, finished, cancelled. */
export type RunStatus = "queued" | "running" | "finished" | "cancelled";

/** The progress of jobs counted by state (states absent count 0) that acted on `acted` in all. */
export function progressFrom(
  counts: Partial<Record<ShownJobState, number>>,
  acted: { bytes: number; units: number },
): RunProgress {
  const states = Object.fromEntries(SHOWN_JOB_STATES.map((s) => [s, counts[s] ?? 0])) as Record<ShownJobState, number>;
  const sum = (list: readonly ShownJobState[]) => list.reduce((n, s) => n + states[s], 0);
  return {
    states,
    jobs: sum(SHOWN_JOB_STATES),
    bytesFreed: acted.bytes,
    unitsActed: acted.units,
    finished: sum(FINAL_JOB_STATES),
  };
}

/** A run's state from its jobs': queued (nothing claimed yet), running, finished, or cancelled. */
export function runStatus(cancelled: boolean, progress: Pick<RunProgress, "states" | "jobs" | "finished">): RunStatus {
  const started = progress.jobs - progress.states.queued - progress.states.expired - progress.states.cancelled;
  return cancelled
    ? "cancelled"
    : progress.finished === progress.jobs
      ? "finished"
      : started > 0
        ? "running"
        : "queued";
}

/**
 * What a run's progress says in one phrase and its bar: "12 of 73 jobs finished" while it goes; for a cancelled
 * run, the jobs that ran (done or failed) before the cancel, so a cancel that stopped 73 waiting jobs does not
 * read as "73 of 73 finished".
 */
export function progressSummary(
  status: RunStatus,
  p: Pick<RunProgress, "states" | "jobs" | "finished">,
): { count: number; text: string; share: number } {
  const count = status === "cancelled" ? p.states.done + p.states.failed : p.finished;
  const of = `of ${p.jobs} ${p.jobs === 1 ? "job" : "jobs"}`;
  const text =
    status === "cancelled"
      ? `cancelled: ${count} ${of} ran, ${p.states.cancelled} cancelled`
      : `${count} ${of} finished`;
  return { count, text, share: p.jobs ? count / p.jobs : 0 };
}
