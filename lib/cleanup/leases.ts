// How long a reporter holds a job, and the caps it acts under: the server sends both with each claim.
import type { ClaimedJob } from "./protocol";

/** A claim's lease: the reporter extends it with each /progress call. */
export const LEASE_MS = 10 * 60 * 1000;

/** When a lease taken or extended at `now` runs out. */
export const leaseEnd = (now: Date) => new Date(now.getTime() + LEASE_MS);

/**
 * Safety caps sent with a job: a reporter never acts on much more than the preview the admin confirmed (half as
 * much again, plus a margin for what appeared since the report). A custom rule has no preview figure and a
 * restore or purge acts on its trash only: those are bounded by the error rate alone. An owner's run (My storage)
 * is bound to its own preview exactly: never more units or bytes than the owner saw.
 */
export function jobLimits(
  job: { previewBytes: number; previewUnits: number; kind: string },
  run: { custom: unknown; byOwner?: boolean },
): ClaimedJob["limits"] {
  const bounded = job.kind === "cleanup" && run.custom === null && job.previewBytes > 0;
  if (bounded && run.byOwner)
    return { maxUnits: job.previewUnits, maxBytes: job.previewBytes, errorPct: 10, minErrors: 5 };
  return {
    maxUnits: bounded ? Math.ceil(job.previewUnits * 1.5) + 100 : 1_000_000,
    maxBytes: bounded ? Math.ceil(job.previewBytes * 1.5) + 64 * 1024 ** 2 : 2 ** 53,
    errorPct: 10,
    minErrors: 5,
  };
}
