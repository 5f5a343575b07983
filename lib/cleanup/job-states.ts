// The states a job is shown in: its stored state, or "lapsed" for a running job whose lease ran out that the
// scheduler's sweep has not ended yet (pages never write, so they derive it when they read).
import { JOB_STATES } from "./protocol";

export const SHOWN_JOB_STATES = [...JOB_STATES, "lapsed"] as const;
export type ShownJobState = (typeof SHOWN_JOB_STATES)[number];
