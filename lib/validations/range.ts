import { differenceInCalendarDays, parseISO } from "date-fns";
import { z } from "zod";
import { toGetter, type SearchParamsInput } from "./search-params";

// The time range of every chart, one schema for all its readers: the JSON API validates it strictly (422 on a
// bad value), pages and the browser read it from the URL forgivingly (a hand-edited link still opens).
// ?range=7d|30d|90d|custom&from=YYYY-MM-DD&to=YYYY-MM-DD

export const RANGE_KEYS = ["7d", "30d", "90d", "custom"] as const;
export type RangeKey = (typeof RANGE_KEYS)[number];
export const DEFAULT_RANGE: RangeKey = "30d";
export const RANGE_DAYS: Record<Exclude<RangeKey, "custom">, number> = { "7d": 7, "30d": 30, "90d": 90 };
/** Longest custom range, in days: keeps every series bounded. */
export const MAX_RANGE_DAYS = 731;

export const RANGE_OPTIONS: readonly { key: RangeKey; label: string }[] = [
  { key: "7d", label: "7 d" },
  { key: "30d", label: "30 d" },
  { key: "90d", label: "90 d" },
  { key: "custom", label: "Custom" },
];

const dayString = z.iso.date();

/** Query parameters shared by every endpoint with a time range. */
export const rangeQuery = z
  .object({
    range: z.enum(RANGE_KEYS).default(DEFAULT_RANGE),
    from: dayString.optional(),
    to: dayString.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.range !== "custom") return;
    if (!v.from) ctx.addIssue({ code: "custom", path: ["from"], message: "is required when range=custom" });
    if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "is after 'to'" });
    // An open range ends today (UTC), so it is bounded too.
    const end = v.to ?? new Date().toISOString().slice(0, 10);
    if (v.from && differenceInCalendarDays(parseISO(end), parseISO(v.from)) >= MAX_RANGE_DAYS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `the range may span at most ${MAX_RANGE_DAYS} days` });
    }
  });

/** A range as the URL, the query keys and the API carry it: a preset alone, or custom with its days. */
export type RangeState = { range: RangeKey; from?: string; to?: string };

/** Only the fields that matter: a preset drops stray days, so equal ranges give equal query keys. */
export function rangeParams(state: RangeState): RangeState {
  if (state.range !== "custom") return { range: state.range };
  return state.to ? { range: "custom", from: state.from, to: state.to } : { range: "custom", from: state.from };
}

/**
 * Reads the range from a page's or the browser's URL with the API's schema. What the API would reject is
 * repaired rather than shown as an error: a bad end day is dropped, anything else falls back to the default.
 */
export function parseRange(params: SearchParamsInput): RangeState {
  const p = toGetter(params);
  const written = {
    range: p.get("range") ?? undefined,
    from: p.get("from") ?? undefined,
    to: p.get("to") ?? undefined,
  };
  for (const candidate of [written, { ...written, to: undefined }]) {
    const parsed = rangeQuery.safeParse(candidate);
    if (parsed.success) return rangeParams(parsed.data);
  }
  return { range: DEFAULT_RANGE };
}

/** Query-string entries for a range; the default range writes nothing so URLs stay short. */
export function rangeEntries(state: RangeState): Record<string, string | null> {
  if (state.range === "custom") return { range: "custom", from: state.from ?? null, to: state.to ?? null };
  return { range: state.range === DEFAULT_RANGE ? null : state.range, from: null, to: null };
}
