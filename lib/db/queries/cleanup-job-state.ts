import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";

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
