import { parseRange, type RangeState, type SearchParamsLike } from "@/lib/query/range";

/** One workspace's URL state: the charts' range (?range=7d|30d|90d|custom&from&to). */
export function parseWorkspaceSearchParams(params: SearchParamsLike | Record<string, string | string[] | undefined>): RangeState {
  return parseRange(params, "30d");
}
