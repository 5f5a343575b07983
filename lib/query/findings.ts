import { queryOptions } from "@tanstack/react-query";
import type { FindingsList, RulesResponse } from "@/lib/db/queries/findings";
import type { RulesUpdateRequest } from "@/lib/findings/rules";
import type { FindingsState } from "@/lib/validations/findings";
import { fetchJson, withQuery } from "./fetch-json";

export const findingKeys = {
  all: ["findings"] as const,
  list: (state: FindingsState) => [...findingKeys.all, "list", state] as const,
  rules: () => [...findingKeys.all, "rules"] as const,
};

export const findingsListOptions = (state: FindingsState) =>
  queryOptions({
    queryKey: findingKeys.list(state),
    queryFn: ({ signal }) => fetchJson<FindingsList>(withQuery("/api/v1/findings", state), { signal }),
  });

export const rulesOptions = () =>
  queryOptions({
    queryKey: findingKeys.rules(),
    queryFn: ({ signal }) => fetchJson<RulesResponse>("/api/v1/findings/rules", { signal }),
  });

export function putRules(body: RulesUpdateRequest): Promise<RulesResponse> {
  return fetchJson<RulesResponse>("/api/v1/findings/rules", { method: "PUT", body: JSON.stringify(body) });
}
