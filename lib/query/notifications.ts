import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { NotificationsView, WorkspaceNotice } from "@/lib/services/notification-log";
import type { TestOutcome } from "@/lib/services/notification-test";
import type { NotifySettingView } from "@/lib/services/notify-settings";
import type { NoticePageFilters, NoticeTestRequest } from "@/lib/validations/notifications";
import type { NotifySettingsUpdate } from "@/lib/validations/notify-settings";
import { fetchJson, withQuery } from "./fetch-json";

export const NOTICES_PAGE_SIZE = 50;

export const notificationKeys = {
  all: ["notifications"] as const,
  list: (filters: NoticePageFilters) => [...notificationKeys.all, "list", filters] as const,
  settings: () => [...notificationKeys.all, "settings"] as const,
  workspace: (id: string) => [...notificationKeys.all, "workspace", id] as const,
};

/** The Notifications page: each channel's state (on every page, read from the first) and the notices, by key. */
export const notificationsOptions = (filters: NoticePageFilters) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(filters),
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      fetchJson<NotificationsView>(
        withQuery("/api/v1/notifications", { ...filters, cursor: pageParam, limit: NOTICES_PAGE_SIZE }),
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const notifySettingsOptions = () =>
  queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => fetchJson<{ settings: NotifySettingView[] }>("/api/v1/settings/notifications", { signal }),
  });

export const workspaceNoticesOptions = (id: string) =>
  queryOptions({
    queryKey: notificationKeys.workspace(id),
    queryFn: ({ signal }) =>
      fetchJson<{ notices: WorkspaceNotice[] }>(`/api/v1/workspaces/${encodeURIComponent(id)}/notices`, { signal }),
  });

export const postNoticeTest = (body: NoticeTestRequest) =>
  fetchJson<TestOutcome>("/api/v1/notifications/test", { method: "POST", body: JSON.stringify(body) });

export const putNotifySettings = (body: NotifySettingsUpdate) =>
  fetchJson<{ settings: NotifySettingView[] }>("/api/v1/settings/notifications", {
    method: "PUT",
    body: JSON.stringify(body),
  });
