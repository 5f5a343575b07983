import { addMinutes, format, formatDistanceStrict } from "date-fns";

type TimeInput = string | number | Date | null | undefined;

export function toDate(value: TimeInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "3 hours ago", "in 5 days"; "—" when unknown. `now` is injectable for tests and stable renders. */
export function formatRelative(value: TimeInput, now: number = Date.now()): string {
  const d = toDate(value);
  if (!d) return "—";
  if (Math.abs(d.getTime() - now) < 45_000) return "just now";
  return formatDistanceStrict(d, now, { addSuffix: true });
}

/** The absolute time for a title attribute, in UTC so server and browser agree: "2026-01-05 14:03 UTC". */
export function formatAbsolute(value: TimeInput): string {
  const d = toDate(value);
  if (!d) return "";
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Axis label for a day: "Jan 5". Days are UTC dates ("2026-01-05") or epoch milliseconds. */
export function formatDay(value: TimeInput): string {
  const d = toDate(typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!d) return "";
  return format(utcAsLocal(d), "MMM d");
}

/** Tooltip label for a day: "Mon, Jan 5 2026". */
export function formatDayLong(value: TimeInput): string {
  const d = toDate(typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!d) return "";
  return format(utcAsLocal(d), "EEE, MMM d yyyy");
}

/** Shifts a UTC instant so date-fns (which formats in local time) prints its UTC calendar fields. */
function utcAsLocal(d: Date): Date {
  return addMinutes(d, d.getTimezoneOffset());
}
