import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { WAITING_JOB_STATES, type JobState, type ShownJobState } from "@/lib/cleanup/job-states";

/**
 * A job's state as the pages show it at `now`, derived in the read instead of written: only the scheduler's
 * sweep (every few minutes) and a claim end jobs, so a GET never writes. Until the sweep has run, a waiting job
 * past its expiry is shown expired (nothing can claim it any more: a claim sweeps its workspace first), and a
 * running one past its lease "lapsed" (its reporter may still extend the lease; if not, the sweep interrupts
 * it). `table` is the name or alias the query reads cleanup_jobs under.
 */
export function shownJobState(table: string, now: Date): SQL {
  const j = sql.identifier(table);
  const at = sql`${now.toISOString()}::timestamptz`;
  const waiting = sql.join(
    WAITING_JOB_STATES.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`(case
    when ${j}.state in (${waiting}) and ${j}.expires_at < ${at} then 'expired'
    when ${j}.state = 'running' and ${j}.lease_expires_at < ${at} then 'lapsed'
    else ${j}.state end)`;
}

/** The stored states of a job shown in `shown`: an expired one may still be stored waiting, a lapsed one running. */
function storedStatesOf(shown: ShownJobState): JobState[] {
  if (shown === "lapsed") return ["running"];
  if (shown === "expired") return ["expired", ...WAITING_JOB_STATES];
  return [shown];
}

/**
 * Jobs shown in `shown` at `now`. The derived state decides; the condition on the stored state beside it says
 * the same in a form an index on (run_id, state) serves, so a rare state is found without reading the run.
 */
export function shownJobStateIs(table: string, now: Date, shown: ShownJobState): SQL {
  const stored = sql.join(
    storedStatesOf(shown).map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`(${sql.identifier(table)}.state in (${stored}) and ${shownJobState(table, now)} = ${shown})`;
}
