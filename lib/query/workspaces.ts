import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import type { WorkspaceList } from "@/lib/db/queries/workspace-list";
import { fetchJson, withQuery } from "./fetch-json";
import { rangeParams, type RangeState } from "@/lib/validations/range";
import { DEFAULT_LIST_STATE, type WorkspaceListState } from "@/lib/validations/workspaces";

export type { WorkspaceListState };

/** A change to the list's state, or one computed from the state as it is when the change applies (a sort toggle). */
export type WorkspaceListPatch =
  Partial<WorkspaceListState> | ((current: WorkspaceListState) => Partial<WorkspaceListState>);

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
      fetchJson<WorkspaceDetail>(withQuery(`/api/v1/workspaces/${encodeURIComponent(id)}`, rangeParams(range)), {
        signal,
      }),
  });

/** Workspaces one lookup by text lists (a name typed in a form): every owner's workspace of one name, and completion. */
export const LOOKUP_SIZE = 100;

/** The workspaces whose name, owner, template or id contains `q`, by name: what the cleanup form resolves names with. */
export const workspaceLookupOptions = (q: string) =>
  workspaceListOptions({ ...DEFAULT_LIST_STATE, q, sort: "name", dir: "asc", pageSize: LOOKUP_SIZE });

/** The workspace that reported last: the Connect page waits for the first one, asking every 5 s until it comes. */
export const latestReportOptions = () =>
  queryOptions({
    ...workspaceListOptions({ ...DEFAULT_LIST_STATE, sort: "lastReport", dir: "desc", pageSize: 1 }),
    refetchInterval: (query) => (query.state.data?.rows[0]?.lastCollectedAt ? false : 5000),
  });
