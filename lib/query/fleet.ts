import { queryOptions } from "@tanstack/react-query";
import type { FleetOverview } from "@/lib/db/queries/fleet";
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
