import "server-only";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import {
  channelHistory,
  listNotices,
  noticeRows,
  type ChannelHistory,
  type NoticeLogRow,
} from "@/lib/db/queries/notification-log";
import { coderInboxWorkspaceCount } from "@/lib/db/queries/coder-inbox";
import { pageTargetExists } from "@/lib/db/queries/page-targets";
import type { WorkspaceScope } from "@/lib/db/scope";
import { NotFoundError } from "@/lib/errors";
import type { NoticeChannel } from "@/lib/notify/types";
import type { NoticeFilters, NotificationsQuery } from "@/lib/validations/notifications";
import { configuredChannels } from "./notifications";

/** How far back the Notifications page looks. */
export const NOTICE_LOG_DAYS = 30;

export type ChannelState = ChannelHistory & {
  channel: NoticeChannel;
  configured: boolean;
  /** The variables that configure it (their values are never shown: they hold passwords and webhook tokens). */
  variables: string[];
  /** The webhook signs its requests (STORAGE_NOTIFY_WEBHOOK_SECRET is set); null for email. */
  signed: boolean | null;
};
export type NotificationsView = { channels: ChannelState[]; notices: NoticeLogRow[]; nextCursor: string | null };

const sinceOf = (now: Date) => new Date(now.getTime() - NOTICE_LOG_DAYS * 86_400_000);

/** Each channel's state and what configures it. */
export async function channelStates(db: Db, notify: NotifyConfig = config().notify): Promise<ChannelState[]> {
  const [history, inboxWorkspaces] = await Promise.all([channelHistory(db), coderInboxWorkspaceCount(db)]);
  const configured = configuredChannels(notify);
  return [
    {
      channel: "email",
      configured: configured.includes("email"),
      variables: ["STORAGE_SMTP_URL", "STORAGE_NOTIFY_FROM"],
      signed: null,
      ...history.email,
    },
    {
      channel: "webhook",
      configured: configured.includes("webhook"),
      variables: ["STORAGE_NOTIFY_WEBHOOK_URL", "STORAGE_NOTIFY_WEBHOOK_SECRET"],
      signed: Boolean(notify.webhook?.secret),
      ...history.webhook,
    },
    {
      channel: "coder-inbox",
      // Configured by the templates: the module's coder_inbox variable (on by default) on a Coder that has the API.
      configured: inboxWorkspaces > 0,
      variables: ["coder_inbox"],
      signed: null,
      ...history["coder-inbox"],
    },
  ];
}

/** Each channel's state (configured, last success, last error, pending) and a page of the last 30 days' notices. */
export async function notificationsView(
  db: Db,
  query: Partial<NotificationsQuery>,
  now = new Date(),
  notify: NotifyConfig = config().notify,
): Promise<NotificationsView> {
  const { cursor, limit = 50, ...filters } = query;
  const [channels, page] = await Promise.all([
    channelStates(db, notify),
    listNotices(db, filters, sinceOf(now), { cursor, limit }),
  ]);
  return { channels, ...page };
}

/** Every notice of the last 30 days under the filters, newest first: the CSV export. */
export const allNotices = (db: Db, filters: NoticeFilters, now = new Date()) => noticeRows(db, filters, sinceOf(now));

/** What a workspace's page shows of its notices: when, what, where, and whether it went. */
export type WorkspaceNotice = Pick<
  NoticeLogRow,
  "id" | "createdAt" | "kind" | "channel" | "status" | "figure" | "sentAt"
>;

/** At most this many on a workspace's page (a notice goes once per state: a month rarely holds more than a few). */
const WORKSPACE_NOTICES = 100;

/**
 * The notices of the last 30 days of one workspace, newest first; 404 when the workspace is unknown or outside
 * the caller's scope (a member asking for another's workspace learns nothing of it).
 */
export async function workspaceNotices(
  db: Db,
  scope: WorkspaceScope,
  workspaceId: string,
  now = new Date(),
): Promise<WorkspaceNotice[]> {
  if (!(await pageTargetExists(db, scope, { kind: "workspace", id: workspaceId })))
    throw new NotFoundError(`Workspace ${workspaceId} is not enrolled.`);
  const page = await listNotices(db, { workspaceId }, sinceOf(now), { limit: WORKSPACE_NOTICES });
  return page.notices.map(({ id, createdAt, kind, channel, status, figure, sentAt }) => ({
    id,
    createdAt,
    kind,
    channel,
    status,
    figure,
    sentAt,
  }));
}
