import "server-only";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { channelHistory, listNotices, type ChannelHistory, type NoticeLogRow } from "@/lib/db/queries/notification-log";
import type { NoticeChannel } from "@/lib/notify/types";
import type { NotificationsQuery } from "@/lib/validations/notifications";
import { configuredChannels } from "./notifications";

/** How far back the Notifications page looks. */
export const NOTICE_LOG_DAYS = 30;

export type ChannelState = ChannelHistory & { channel: NoticeChannel; configured: boolean };
export type NotificationsView = { channels: ChannelState[]; notices: NoticeLogRow[] };

/** Each channel's state (configured, last success, last error) and the notices of the last 30 days. */
export async function notificationsView(
  db: Db,
  filters: NotificationsQuery,
  now = new Date(),
  notify: NotifyConfig = config().notify,
): Promise<NotificationsView> {
  const since = new Date(now.getTime() - NOTICE_LOG_DAYS * 86_400_000);
  const [history, notices] = await Promise.all([channelHistory(db), listNotices(db, filters, since)]);
  const configured = configuredChannels(notify);
  const channels = (["email", "webhook"] as const).map((channel) => ({
    channel,
    configured: configured.includes(channel),
    ...history[channel],
  }));
  return { channels, notices };
}
