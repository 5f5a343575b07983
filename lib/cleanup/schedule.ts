// When a policy's next run is due. Pure: the scheduler (lib/cleanup/scheduler.ts) and the policy page use it.
import { addDays, addWeeks } from "date-fns";
import type { PolicySchedule } from "./types";

export type Schedulable = { schedule: PolicySchedule; enabled: boolean; lastRunAt: Date | null; createdAt: Date };

/**
 * The moment the policy is next due: a day (or a week) after its last run; a policy that never ran is due at
 * once. null when it never runs by itself (off or disabled).
 */
export function nextRunAt(p: Schedulable, now: Date): Date | null {
  if (!p.enabled || p.schedule === "off") return null;
  if (!p.lastRunAt) return now;
  return p.schedule === "daily" ? addDays(p.lastRunAt, 1) : addWeeks(p.lastRunAt, 1);
}

export function isDue(p: Schedulable, now: Date): boolean {
  const next = nextRunAt(p, now);
  return next !== null && next.getTime() <= now.getTime();
}
