// When a policy runs: every day, or every week on one weekday, at one time of day in UTC. Pure: the scheduler
// (lib/services/cleanup-scheduler.ts), the policy page and the form use it. A policy's first run is its first slot after
// it was saved, never the moment it is saved.
import { UTCDate } from "@date-fns/utc";
import { addDays, addWeeks, set, setDay } from "date-fns";
import type { PolicySchedule } from "./types";

export type Slot = { schedule: PolicySchedule; runAtMinute: number; runWeekday: number };
export type Schedulable = Slot & { enabled: boolean; lastRunAt: Date | null; createdAt: Date };

/** Defaults of a new policy: Mondays (weekly) at 03:00 UTC, when few people work. */
export const DEFAULT_RUN_AT_MINUTE = 3 * 60;
export const DEFAULT_RUN_WEEKDAY = 1;

/** The first slot strictly after `after`. */
export function slotAfter(s: Slot, after: Date): Date {
  const base = new UTCDate(after.getTime());
  const time = { hours: Math.floor(s.runAtMinute / 60), minutes: s.runAtMinute % 60, seconds: 0, milliseconds: 0 };
  if (s.schedule === "weekly") {
    const slot = set(setDay(base, s.runWeekday), time);
    return new Date((slot > base ? slot : addWeeks(slot, 1)).getTime());
  }
  const slot = set(base, time);
  return new Date((slot > base ? slot : addDays(slot, 1)).getTime());
}

/**
 * The moment the policy is next due: its first slot after its last run (or, if it never ran, after it was
 * created). A slot missed while no instance ran is due at once. null when it never runs by itself.
 */
export function nextRunAt(p: Schedulable): Date | null {
  if (!p.enabled || p.schedule === "off") return null;
  return slotAfter(p, p.lastRunAt ?? p.createdAt);
}

export function isDue(p: Schedulable, now: Date): boolean {
  const next = nextRunAt(p);
  return next !== null && next.getTime() <= now.getTime();
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const weekdayName = (d: number) => WEEKDAYS[d];

/** "03:00" from minutes after midnight. */
export function clockOf(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** The schedule in words: "every Monday 03:00 UTC", "every day 03:00 UTC", "only when run by hand". */
export function describeSchedule(s: Slot): string {
  if (s.schedule === "off") return "only when run by hand";
  const at = `${clockOf(s.runAtMinute)} UTC`;
  return s.schedule === "daily" ? `every day ${at}` : `every ${weekdayName(s.runWeekday)} ${at}`;
}
