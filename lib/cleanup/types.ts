// Types and plain constants of cleanup shared by the server, the pages and the browser (no runtime imports).
import type { z } from "zod";
import type { customTarget, JOB_KINDS } from "@/lib/cleanup/protocol";

export type JobKind = (typeof JOB_KINDS)[number];
export type CustomTarget = z.infer<typeof customTarget>;

export const POLICY_SCHEDULES = ["off", "daily", "weekly"] as const;
export type PolicySchedule = (typeof POLICY_SCHEDULES)[number];

/** Days a job waits to be claimed before it expires, unless the run says otherwise. */
export const DEFAULT_EXPIRES_DAYS = 7;
/** A run is refused when the preview moved by more than this share since the admin saw it. */
export const CONFIRM_TOLERANCE = 0.1;
/** Workspaces of a workspaceIds scope a run names (the rest are counted): its header stays one line. */
export const SCOPE_NAMED = 3;
