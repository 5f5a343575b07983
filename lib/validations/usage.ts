import { differenceInCalendarDays, endOfMonth, format, parseISO } from "date-fns";
import { z } from "zod";
import { MAX_RANGE_DAYS } from "./range";
import { toGetter, type SearchParamsInput } from "./search-params";

// The usage by team's parameters (GET /api/v1/usage, /usage, usage-by.csv), one schema for the route, the page and
// the browser: ?dimension=organization|group|owner|template|agent&month=YYYY-MM or &from=YYYY-MM-DD&to=YYYY-MM-DD.
// The API answers 400 with its own code for each mistake an admin makes (docs/usage.md): a dimension that does not
// exist, a range that ends in the future, a range with no data.

export const USAGE_DIMENSIONS = ["organization", "group", "owner", "template", "agent"] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];
export const DEFAULT_DIMENSION: UsageDimension = "group";

export const USAGE_DIMENSION_LABELS: Record<UsageDimension, string> = {
  organization: "Organization",
  group: "Group",
  owner: "Owner",
  template: "Template",
  agent: "Agent",
};

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "is not a month (YYYY-MM)");

/** The query as written: a month, or a range of days (both ends included); neither is the month to date. */
export const usageQuery = z
  .object({
    dimension: z.string().max(40).default(DEFAULT_DIMENSION),
    month: month.optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.month && (v.from || v.to))
      ctx.addIssue({ code: "custom", path: ["month"], message: "goes with neither 'from' nor 'to'" });
    if (!v.month && !v.from !== !v.to)
      ctx.addIssue({ code: "custom", path: [v.from ? "to" : "from"], message: "is required with the other end" });
    if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "is after 'to'" });
  });
export type UsageQuery = z.input<typeof usageQuery>;

/** What a usage query asks for once resolved: both ends inclusive UTC days, the range as the page names it. */
export type UsageParams = { dimension: UsageDimension; from: string; to: string; month: string | null };

export const isUsageDimension = (d: string): d is UsageDimension => (USAGE_DIMENSIONS as readonly string[]).includes(d);

/** A range's mistake, with the API's code for it (400). */
export type UsageRangeProblem = { code: "unknown_dimension" | "future_range" | "range_too_long"; message: string };

/** The month `YYYY-MM` of a day. */
export const monthOf = (day: string) => day.slice(0, 7);

/**
 * Resolves a parsed query against today (UTC): a month is its first to its last day, cut at today for the month
 * under way; no month and no range is the current month to date.
 */
export function resolveUsage(
  q: z.output<typeof usageQuery>,
  today: string,
): { params: UsageParams } | { problem: UsageRangeProblem } {
  if (!isUsageDimension(q.dimension)) {
    return {
      problem: {
        code: "unknown_dimension",
        message: `There is no dimension "${q.dimension}": use one of ${USAGE_DIMENSIONS.join(", ")}.`,
      },
    };
  }
  const m = q.month ?? (q.from ? null : monthOf(today));
  const from = m ? `${m}-01` : q.from!;
  const end = m ? format(endOfMonth(parseISO(from)), "yyyy-MM-dd") : q.to!;
  if (from > today) {
    return {
      problem: {
        code: "future_range",
        message: `${m ? `The month ${m}` : `The range from ${from}`} has not begun: today is ${today} (UTC).`,
      },
    };
  }
  if (!m && end > today) {
    return { problem: { code: "future_range", message: `The range ends on ${end}, after today (${today}, UTC).` } };
  }
  const to = end > today ? today : end;
  if (differenceInCalendarDays(parseISO(to), parseISO(from)) >= MAX_RANGE_DAYS) {
    return {
      problem: { code: "range_too_long", message: `The range may span at most ${MAX_RANGE_DAYS} days.` },
    };
  }
  return { params: { dimension: q.dimension, from, to, month: m } };
}

/** The page's and the browser's reading of the URL: anything the API would refuse falls back to the default. */
export function parseUsageState(params: SearchParamsInput, today: string): UsageParams {
  const p = toGetter(params);
  const parsed = usageQuery.safeParse({
    dimension: p.get("dimension") ?? undefined,
    month: p.get("month") ?? undefined,
    from: p.get("from") ?? undefined,
    to: p.get("to") ?? undefined,
  });
  const resolved = parsed.success ? resolveUsage(parsed.data, today) : null;
  if (resolved && "params" in resolved) return resolved.params;
  const fallback = resolveUsage({ dimension: DEFAULT_DIMENSION }, today);
  return (fallback as { params: UsageParams }).params;
}

/** The query string of a usage view: its month, or its range. */
export function usageSearch(p: Pick<UsageParams, "dimension" | "from" | "to" | "month">): string {
  const q = new URLSearchParams({ dimension: p.dimension });
  if (p.month) q.set("month", p.month);
  else {
    q.set("from", p.from);
    q.set("to", p.to);
  }
  return q.toString();
}

/** A resolved view as the query it was resolved from (the page's prefetch asks what the browser will). */
export const usageQueryOf = (p: UsageParams): z.output<typeof usageQuery> =>
  p.month ? { dimension: p.dimension, month: p.month } : { dimension: p.dimension, from: p.from, to: p.to };
