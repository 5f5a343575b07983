import { parseRange, type RangeState, type SearchParamsLike } from "@/lib/query/range";

/** One agent's URL state: the chart's range (?range=7d|30d|90d|custom&from&to). */
export function parseAgentSearchParams(params: SearchParamsLike | Record<string, string | string[] | undefined>): RangeState {
  return parseRange(params, "30d");
}
