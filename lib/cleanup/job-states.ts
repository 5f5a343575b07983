// Every set of cleanup job states, in one place: the states a job is stored in, the sets the queries act on
// (what a claim takes, what is final, what a result may end), and the states the pages and exports show.
// Plain constants: the server, the pages in the browser and the exports import them.

export const JOB_STATES = ["queued", "running", "done", "failed", "cancelled", "expired", "interrupted"] as const;
export type JobState = (typeof JOB_STATES)[number];

/** States a job no longer leaves. */
export const FINAL_JOB_STATES = ["done", "failed", "cancelled", "expired"] as const satisfies readonly JobState[];
/** States a job waits in for its workspace's reporter: a claim takes them, expiry and cancelling end them. */
export const WAITING_JOB_STATES = ["queued", "interrupted"] as const satisfies readonly JobState[];
/**
 * States a job takes its result in, from the holder of its current lease: running, and also after its lease
 * lapsed (interrupted) or its run was cancelled while it ran, since the reporter may have acted meanwhile.
 */
export const RESULT_JOB_STATES = ["running", "interrupted", "cancelled"] as const satisfies readonly JobState[];

/**
 * The states a job is shown in: its stored state, or "lapsed" for a running job whose lease ran out that the
 * scheduler's sweep has not ended yet (pages never write, so they derive it when they read).
 */
export const SHOWN_JOB_STATES = [...JOB_STATES, "lapsed"] as const;
export type ShownJobState = (typeof SHOWN_JOB_STATES)[number];

/** The states a run's one-line summary names: jobs still under way, and jobs that ended without acting. */
export const SUMMARY_JOB_STATES = [
  "queued",
  "running",
  "lapsed",
  "interrupted",
  "failed",
  "expired",
] as const satisfies readonly ShownJobState[];
