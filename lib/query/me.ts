import { queryOptions } from "@tanstack/react-query";
import type { RecipeId } from "@/lib/catalog/recipes";
import type { MyStorage } from "@/lib/services/my-storage";
import type { OwnerPreview } from "@/lib/services/owner-cleanup";
import type { NoticePreferences, NoticePreferencesChange } from "@/lib/validations/notifications";
import { fetchJson } from "./fetch-json";

// My storage: a workspace owner's own page, its previews, runs, restores and Keeps (the owners' endpoints).

export const meKeys = {
  all: ["me"] as const,
  storage: () => [...meKeys.all, "storage"] as const,
  noticePreferences: () => [...meKeys.all, "notice-preferences"] as const,
};

export const myStorageOptions = () =>
  queryOptions({
    queryKey: meKeys.storage(),
    queryFn: ({ signal }) => fetchJson<MyStorage>("/api/v1/me/storage", { signal }),
  });

/** Which optional notices the signed-in owner receives, per channel. */
export const myNoticePreferencesOptions = () =>
  queryOptions({
    queryKey: meKeys.noticePreferences(),
    queryFn: ({ signal }) => fetchJson<NoticePreferences>("/api/v1/me/notification-preferences", { signal }),
  });

export const putNoticePreferences = (body: NoticePreferencesChange) =>
  fetchJson<NoticePreferences>("/api/v1/me/notification-preferences", { method: "PUT", body: JSON.stringify(body) });

const send = <T>(path: string, method: "POST" | "DELETE", body?: unknown) =>
  fetchJson<T>(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

type Queued = { id: string; jobs: number };

export const postOwnerPreview = (body: { workspaceId: string; recipe: RecipeId }) =>
  send<OwnerPreview>("/api/v1/me/cleanup/preview", "POST", body);
export const postOwnerRun = (body: { workspaceId: string; recipe: RecipeId; confirmBytes: number }) =>
  send<Queued>("/api/v1/me/cleanup/runs", "POST", body);
export const postOwnerRestore = (jobId: string) =>
  send<Queued>(`/api/v1/me/cleanup/jobs/${encodeURIComponent(jobId)}/restore`, "POST");
export const postKeep = (body: { workspaceId: string; path: string; days: number }) =>
  send<{ id: string; path: string; expiresAt: string }>("/api/v1/me/keeps", "POST", body);
export const deleteKeep = (id: string) =>
  send<{ id: string; ended: boolean }>(`/api/v1/me/keeps/${encodeURIComponent(id)}`, "DELETE");
