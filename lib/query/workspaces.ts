import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { WorkspaceDetail, WorkspaceList, WorkspaceSortColumn } from "@/lib/db/queries/workspaces";
import { fetchJson, withQuery } from "./fetch-json";
import { rangeParams, type RangeState } from "@/lib/validations/range";

/** The list's parameters as the URL and the API spell them (defaults filled in). */
export type WorkspaceListState = {
  q: string;
  owner: string;
  template: string;
  agent: string;
  sort: WorkspaceSortColumn;
  dir: "asc" | "desc";
  page: number;
  pageSize: number;
};

export const workspaceKeys = {
  all: ["workspaces"] as const,
  lists: () => [...workspaceKeys.all, "list"] as const,
  list: (state: WorkspaceListState) => [...workspaceKeys.lists(), state] as const,
  details: () => [...workspaceKeys.all, "detail"] as const,
  detail: (id: string, range: RangeState) => [...workspaceKeys.details(), id, rangeParams(range)] as const,
};

export const workspaceListOptions = (state: WorkspaceListState) =>
  queryOptions({
    queryKey: workspaceKeys.list(state),
    queryFn: ({ signal }) => fetchJson<WorkspaceList>(withQuery("/api/v1/workspaces", state), { signal }),
    // Paging and filtering keep the previous page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export const workspaceDetailOptions = (id: string, range: RangeState) =>
  queryOptions({
    queryKey: workspaceKeys.detail(id, range),
    queryFn: ({ signal }) =>
      fetchJson<WorkspaceDetail>(withQuery(`/api/v1/workspaces/${encodeURIComponent(id)}`, rangeParams(range)), { signal }),
  });
