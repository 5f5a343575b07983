// Why a run's jobs wait: a job is claimed only when its workspace's reporter calls in (every 30 minutes while the
// workspace runs). When none of the waiting jobs' workspaces has reported for over an hour, the run page says
// so rather than leave the admin watching a queue that cannot move.

/**
 * A run's jobs that wait for their workspace's reporter, the newest report among those workspaces and the whole
 * hours since it, at the time the server read them (null: none of them ever reported).
 */
export type WaitingReporters = { jobs: number; lastReportAt: string | null; quietHours: number | null };

const HOUR = 3600_000;

/** Whole hours from `last` to `now`, or null without a report. */
export const hoursSince = (last: string | null, now: Date) =>
  last === null ? null : Math.floor((now.getTime() - Date.parse(last)) / HOUR);
/** Two missed calls of a reporter on its default 30-minute schedule. */
export const QUIET_AFTER_HOURS = 1;

/** The sentence for a run whose jobs wait on reporters that stopped calling in, or null when one called lately. */
export function waitingText(w: WaitingReporters): string | null {
  if (w.jobs === 0) return null;
  const whose = w.jobs === 1 ? "the waiting job's workspace" : `the workspaces of the ${w.jobs} waiting jobs`;
  const wait =
    "Jobs are claimed when their workspace's reporter calls in: these wait until the workspaces run again, or expire.";
  const hours = w.quietHours;
  if (hours === null) return `No reporter has called in yet: ${whose} never reported. ${wait}`;
  if (hours < QUIET_AFTER_HOURS) return null;
  return `No reporter has called in for ${hours === 1 ? "1 hour" : `${hours} hours`}: ${whose} last reported then. ${wait}`;
}
