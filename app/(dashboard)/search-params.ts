import { parseRange, type RangeState, type SearchParamsLike } from "@/lib/query/range";

/** The overview's URL state: only the chart's range (?range=7d|30d|90d|custom&from&to). */
export function parseOverviewSearchParams(
  params: SearchParamsLike | Record<string, string | string[] | undefined>,
): RangeState {
  return parseRange(params, "30d");
}
