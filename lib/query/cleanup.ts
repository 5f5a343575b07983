import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { Catalog } from "@/lib/db/queries/cleanup-catalog";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import type { PreviewAnswer } from "@/lib/db/queries/cleanup-overlap";
import type { LastRun, Policy } from "@/lib/services/cleanup-policies";
import type { FreeSpacePreview } from "@/lib/services/free-space";
import type { JobDetail } from "@/lib/db/queries/cleanup-run-jobs";
import type { RunDetail, RunList } from "@/lib/db/queries/cleanup-views";
import type {
  CreatePolicyRequest,
  CreateRunRequest,
  PreviewRequest,
  RunJobsView,
  TruncateRequest,
  UpdatePolicyRequest,
} from "@/lib/validations/cleanup";
import { fetchJson, withQuery } from "./fetch-json";

export const cleanupKeys = {
  all: ["cleanup"] as const,
  catalog: () => [...cleanupKeys.all, "catalog"] as const,
  runs: () => [...cleanupKeys.all, "runs"] as const,
  run: (id: string, view: RunJobsView) => [...cleanupKeys.all, "run", id, view] as const,
  job: (id: string) => [...cleanupKeys.all, "job", id] as const,
  preview: (body: unknown) => [...cleanupKeys.all, "preview", body] as const,
  freeSpace: (workspaceId: string) => [...cleanupKeys.all, "preview", "free-space", workspaceId] as const,
  policies: () => [...cleanupKeys.all, "policies"] as const,
  policy: (id: string) => [...cleanupKeys.all, "policy", id] as const,
};

/** A run's page refreshes quickly while its jobs are still out. */
const LIVE_MS = 5_000;

export const catalogOptions = () =>
  queryOptions({
    queryKey: cleanupKeys.catalog(),
    queryFn: ({ signal }) => fetchJson<Catalog>("/api/v1/cleanup/recipes", { signal }),
  });

export const runsOptions = () =>
  infiniteQueryOptions({
    queryKey: cleanupKeys.runs(),
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      fetchJson<RunList>(withQuery("/api/v1/cleanup/runs", { cursor: pageParam, limit: 25 }), { signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** A run's first page key: what the server prefetches it under (see runOptions). */
export const FIRST_PAGE = "";

/**
 * A run and its jobs in the view's order, a page at a time (each page carries the run as it was then; the
 * newest first page is what the header shows). A refresh refetches the pages loaded, each by key.
 */
export const runOptions = (id: string, view: RunJobsView) =>
  infiniteQueryOptions({
    queryKey: cleanupKeys.run(id, view),
    initialPageParam: FIRST_PAGE,
    queryFn: ({ pageParam, signal }) =>
      fetchJson<RunDetail>(
        withQuery(`/api/v1/cleanup/runs/${encodeURIComponent(id)}`, { ...view, cursor: pageParam }),
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data && ["finished", "cancelled"].includes(q.state.data.pages[0].run.status) ? 60_000 : LIVE_MS,
  });

/** A job's result, asked for when someone opens the job; refreshed with its run until it has one. */
export const jobOptions = (id: string) =>
  queryOptions({
    queryKey: cleanupKeys.job(id),
    queryFn: ({ signal }) => fetchJson<JobDetail>(`/api/v1/cleanup/jobs/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (q) => (q.state.data?.result ? false : LIVE_MS),
  });

export const previewOptions = (body: PreviewRequest | null) =>
  queryOptions({
    queryKey: cleanupKeys.preview(body),
    queryFn: ({ signal }) =>
      fetchJson<PreviewAnswer>("/api/v1/cleanup/preview", { method: "POST", body: JSON.stringify(body), signal }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    refetchInterval: false,
    staleTime: 15_000,
  });

/** "Free space here": every recipe's previews on one workspace and its trash, in one request. */
export const freeSpaceOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: cleanupKeys.freeSpace(workspaceId),
    queryFn: ({ signal }) =>
      fetchJson<FreeSpacePreview>("/api/v1/cleanup/preview/free-space", {
        method: "POST",
        body: JSON.stringify({ workspaceId }),
        signal,
      }),
    refetchInterval: false,
    staleTime: 15_000,
  });

export const policiesOptions = () =>
  queryOptions({
    queryKey: cleanupKeys.policies(),
    queryFn: ({ signal }) => fetchJson<{ policies: Policy[] }>("/api/v1/cleanup/policies", { signal }),
  });

export const policyOptions = (id: string) =>
  queryOptions({
    queryKey: cleanupKeys.policy(id),
    queryFn: ({ signal }) =>
      fetchJson<{ policy: Policy; preview: CleanupPreview; lastRun: LastRun | null }>(
        `/api/v1/cleanup/policies/${encodeURIComponent(id)}`,
        {
          signal,
        },
      ),
  });

const post = <T>(path: string, body?: unknown) =>
  fetchJson<T>(path, { method: "POST", ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

export const postRun = (body: CreateRunRequest) => post<{ id: string; jobs: number }>("/api/v1/cleanup/runs", body);
export const cancelRun = (id: string) =>
  post<{ cancelled: number; stopping: number }>(`/api/v1/cleanup/runs/${encodeURIComponent(id)}/cancel`);
export const restoreJob = (id: string) =>
  post<{ id: string; jobs: number }>(`/api/v1/cleanup/jobs/${encodeURIComponent(id)}/restore`);
export const purgeTrash = (workspaceIds: string[]) =>
  post<{ id: string; jobs: number }>("/api/v1/cleanup/trash/purge", { workspaceIds });
export const truncateLog = (body: TruncateRequest) =>
  post<{ id: string; jobs: number }>("/api/v1/cleanup/truncate", body);
export const postPolicy = (body: CreatePolicyRequest) => post<{ policy: Policy }>("/api/v1/cleanup/policies", body);
export const patchPolicy = (id: string, body: UpdatePolicyRequest) =>
  fetchJson<{ policy: Policy }>(`/api/v1/cleanup/policies/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: JSON.stringify(body),
  });
export const deletePolicy = (id: string) =>
  fetchJson<{ deleted: true }>(`/api/v1/cleanup/policies/${encodeURIComponent(id)}`, { method: "DELETE" });
/** "Run now" and "Confirm" send the preview figure the admin saw: the server refuses both when it moved since. */
export const runPolicyNow = (id: string, confirmBytes: number) =>
  post<{ id: string; jobs: number }>(`/api/v1/cleanup/policies/${encodeURIComponent(id)}/run`, { confirmBytes });
export const confirmPolicy = (id: string, confirmBytes: number) =>
  post<{ policy: Policy }>(`/api/v1/cleanup/policies/${encodeURIComponent(id)}/confirm`, { confirmBytes });
