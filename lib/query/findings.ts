import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { FindingsList, RulesResponse } from "@/lib/db/queries/findings";
import type { RulesUpdateRequest } from "@/lib/findings/rules";
import type { FindingsState } from "@/lib/validations/findings";
import { fetchJson, withQuery } from "./fetch-json";

export const findingKeys = {
  all: ["findings"] as const,
  list: (state: FindingsState) => [...findingKeys.all, "list", state] as const,
  rules: () => [...findingKeys.all, "rules"] as const,
};

/** Rows a page of the findings list holds. */
export const FINDINGS_PAGE_SIZE = 50;

/** The findings list, a page at a time: each page continues by key after the last row of the one before. */
export const findingsListOptions = (state: FindingsState) =>
  infiniteQueryOptions({
    queryKey: findingKeys.list(state),
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      fetchJson<FindingsList>(
        withQuery("/api/v1/findings", { ...state, cursor: pageParam, limit: FINDINGS_PAGE_SIZE }),
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const rulesOptions = () =>
  queryOptions({
    queryKey: findingKeys.rules(),
    queryFn: ({ signal }) => fetchJson<RulesResponse>("/api/v1/findings/rules", { signal }),
  });

export function putRules(body: RulesUpdateRequest): Promise<RulesResponse> {
  return fetchJson<RulesResponse>("/api/v1/findings/rules", { method: "PUT", body: JSON.stringify(body) });
}
