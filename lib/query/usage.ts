import { queryOptions } from "@tanstack/react-query";
import type { UsageReport } from "@/lib/db/queries/usage-report";
import type { TeamUpload } from "@/lib/services/team-upload";
import { usageSearch, type UsageParams } from "@/lib/validations/usage";
import { fetchJson } from "./fetch-json";

export const usageKeys = {
  all: ["usage"] as const,
  report: (p: UsageParams) => [...usageKeys.all, p.dimension, p.month ?? `${p.from}..${p.to}`] as const,
};

export const usageReportOptions = (p: UsageParams) =>
  queryOptions({
    queryKey: usageKeys.report(p),
    queryFn: ({ signal }) => fetchJson<UsageReport>(`/api/v1/usage?${usageSearch(p)}`, { signal }),
  });

/** POST /api/v1/teams/upload: an owner → team CSV, replacing the teams uploaded before. */
export const postTeamsUpload = (csv: string) =>
  fetchJson<TeamUpload>("/api/v1/teams/upload", { method: "POST", body: csv, headers: { "content-type": "text/csv" } });
