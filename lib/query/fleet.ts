import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { FleetOverview } from "@/lib/db/queries/fleet";
import type { AtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { fetchJson, withQuery } from "./fetch-json";
import { rangeParams, type RangeState } from "@/lib/validations/range";

export const fleetKeys = {
  all: ["fleet"] as const,
  overview: (range: RangeState) => [...fleetKeys.all, "overview", rangeParams(range)] as const,
};

export const fleetOverviewOptions = (range: RangeState) =>
  queryOptions({
    queryKey: fleetKeys.overview(range),
    queryFn: ({ signal }) =>
      fetchJson<FleetOverview>(withQuery("/api/v1/fleet/overview", rangeParams(range)), { signal }),
  });

/** The volumes at risk within `days` (undefined: the volume-filling rule's), a page at a time by key. */
export const atRiskOptions = (days: number | undefined) =>
  infiniteQueryOptions({
    queryKey: [...fleetKeys.all, "at-risk", days ?? null] as const,
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      fetchJson<AtRiskPage>(withQuery("/api/v1/volumes/at-risk", { days, after: pageParam }), { signal }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
