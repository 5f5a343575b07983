import { queryOptions } from "@tanstack/react-query";
import type { RestartRisk } from "@/lib/db/queries/restart-risk";
import { fetchJson } from "./fetch-json";
import { fleetKeys } from "./fleet";

export const restartKeys = { risk: () => [...fleetKeys.all, "restart"] as const };

export const restartRiskOptions = () =>
  queryOptions({
    queryKey: restartKeys.risk(),
    queryFn: ({ signal }) => fetchJson<RestartRisk>("/api/v1/fleet/restart", { signal }),
  });
