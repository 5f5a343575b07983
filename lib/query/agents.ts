import { queryOptions } from "@tanstack/react-query";
import type { AgentDetail } from "@/lib/db/queries/agents";
import { fetchJson, withQuery } from "./fetch-json";
import { rangeParams, type RangeState } from "@/lib/validations/range";

export const agentKeys = {
  all: ["agents"] as const,
  detail: (agent: string, range: RangeState) => [...agentKeys.all, "detail", agent, rangeParams(range)] as const,
};

export const agentDetailOptions = (agent: string, range: RangeState) =>
  queryOptions({
    queryKey: agentKeys.detail(agent, range),
    queryFn: ({ signal }) =>
      fetchJson<AgentDetail>(withQuery(`/api/v1/agents/${encodeURIComponent(agent)}`, rangeParams(range)), { signal }),
  });
